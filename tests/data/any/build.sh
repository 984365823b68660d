#!/usr/bin/env bash
# Rebuild the story files in tests/data/any from their sources; the bytes
# are reproducible (Release and Serial are fixed in the sources, and the
# serials that zorkie and Inform 7 stamp from the build date are pinned).
#   ./build.sh           build chalk.z5, bell.z3 and ferry.z8 and print md5s
#   ./build.sh --check   build into a temp dir and compare with the files here
# Needs: inform6 (Debian inform6-compiler) with the Debian library 6.12
# (inform6-library); zorkie (pip install zorkie; tested with 0.2.0); the
# Inform 7 6M62 compilers (ni and inform6) that TextWorld ships (pip install
# textworld; tested with 1.7.0), or INFORM_HOME pointing at such a tree.
set -euo pipefail

DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SERIAL=261128          # also the Serial in chalk.inf
I6LIB="${I6LIB:-/usr/share/inform6/library}"
ZORKIE="${ZORKIE:-zorkie}"
PY="${PYTHON:-python3}"

OUT="$DIR"
if [ "${1:-}" = "--check" ]; then
    OUT="$(mktemp -d)"; trap 'rm -rf "$OUT"' EXIT
fi

# 1. THE CHALK WARREN: Inform 6, Z-machine v5.
command -v inform6 >/dev/null || { echo "inform6 not found (apt-get install inform6-compiler inform6-library)" >&2; exit 1; }
inform6 -v5 +include_path="$I6LIB" "$DIR/chalk.inf" "$OUT/chalk.z5" >/dev/null

# 2. CLAPPERLESS: ZIL, Z-machine v3, with zorkie. zorkie writes the build
# date (YYMMDD) into the header serial (bytes 0x12-0x17); pin it. zorkie
# 0.2.0 leaves the header release (bytes 2-3) at 0 whatever RELEASEID says;
# set it to 2, the release the story prints. (The header checksum covers
# only bytes 0x40 on, so neither change touches it.)
command -v "$ZORKIE" >/dev/null || { echo "zorkie not found (pip install zorkie)" >&2; exit 1; }
"$ZORKIE" "$DIR/bell.zil" -o "$OUT/bell.z3" -v 3 >/dev/null
printf '%s' "$SERIAL" | dd of="$OUT/bell.z3" bs=1 seek=18 conv=notrunc status=none
printf '\000\002' | dd of="$OUT/bell.z3" bs=1 seek=2 conv=notrunc status=none

# 3. DRY PARCEL: Inform 7 (6M62, TextWorld's copy), Z-machine v8. The same
# two steps as textworld.generator.inform7.world2inform7.compile_inform7_game:
# ni turns Source/story.ni into Build/auto.inf, then I7's inform6 -E2wSv8F0.
# ni writes the build date as the Serial directive in auto.inf; pin it.
I7="${INFORM_HOME:-$("$PY" -c 'import os, textworld; print(os.path.join(os.path.dirname(textworld.__file__), "thirdparty", "inform7-6M62"))')}"
NI="$I7/share/inform7/Compilers/ni"
I7_I6="$I7/share/inform7/Compilers/inform6"
[ -x "$NI" ] || { echo "Inform 7 compiler not found at $NI (pip install textworld)" >&2; exit 1; }
PROJ="$(mktemp -d)/ferry.inform"
mkdir -p "$PROJ/Source"
cp "$DIR/ferry.ni" "$PROJ/Source/story.ni"
: > "$PROJ/uuid.txt"
"$NI" --internal "$I7/share/inform7/Internal" --format=.z8 --project "$PROJ" >/dev/null 2>&1 \
    || { echo "ni failed; see $PROJ/Build/Problems.html" >&2; exit 1; }
sed -i "s/^Serial \"[0-9]*\";/Serial \"$SERIAL\";/" "$PROJ/Build/auto.inf"
"$I7_I6" -E2wSv8F0 "$PROJ/Build/auto.inf" "$OUT/ferry.z8" >/dev/null
rm -rf "$(dirname "$PROJ")"

if [ "${1:-}" = "--check" ]; then
    rc=0
    for f in chalk.z5 bell.z3 ferry.z8; do
        if cmp -s "$OUT/$f" "$DIR/$f"; then echo "ok   $f"; else echo "DIFF $f" >&2; rc=1; fi
    done
    exit $rc
fi
( cd "$DIR" && md5sum chalk.z5 bell.z3 ferry.z8 )
