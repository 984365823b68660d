#!/usr/bin/env bash
# Build the bundled zorktui story: zorktui/stories/lighthouse.inf -> lighthouse.z5
#
# Usage: scripts/build_story.sh
# Env:   INFORM6       path to the inform6 compiler   (default: inform6 on PATH)
#        INFORM6_LIB   directory holding the Inform 6 standard library
#                      (parser.h / Parser.h); searched for if unset.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
STORIES="$ROOT/zorktui/stories"
SRC="$STORIES/lighthouse.inf"
OUT="$STORIES/lighthouse.z5"

die() { echo "build_story: $*" >&2; exit 1; }

# --- compiler ----------------------------------------------------------------
INFORM6="${INFORM6:-}"
if [ -z "$INFORM6" ]; then
    for c in inform6 inform; do
        if command -v "$c" >/dev/null 2>&1; then INFORM6="$(command -v "$c")"; break; fi
    done
fi
if [ -z "$INFORM6" ] || ! command -v "$INFORM6" >/dev/null 2>&1; then
    die "the Inform 6 compiler (inform6) was not found.
  On Debian/Ubuntu install it with:
      sudo apt-get install inform6-compiler inform6-library
  or set INFORM6=/path/to/inform6."
fi

# --- standard library --------------------------------------------------------
has_lib() { [ -f "$1/parser.h" ] || [ -f "$1/Parser.h" ] || [ -f "$1/parser.inf" ]; }

LIB="${INFORM6_LIB:-}"
if [ -n "$LIB" ]; then
    has_lib "$LIB" || die "INFORM6_LIB=$LIB does not contain the Inform 6 library (parser.h)."
else
    prefix="$(cd "$(dirname "$INFORM6")/.." && pwd)"
    for d in \
        /usr/share/inform6/library \
        /usr/local/share/inform6/library \
        "$prefix/share/inform6/library" \
        "$prefix/share/inform6/lib" \
        "$prefix/lib/inform6/library" \
        /usr/share/inform/library \
        /usr/local/share/inform/library \
        /opt/homebrew/share/inform6/library; do
        if has_lib "$d"; then LIB="$d"; break; fi
    done
    if [ -z "$LIB" ]; then
        # Last resort: look anywhere under the usual share directories.
        found="$(find /usr/share /usr/local/share "$prefix/share" -maxdepth 4 \
                    \( -iname parser.h \) 2>/dev/null | head -n 1 || true)"
        [ -n "$found" ] && LIB="$(dirname "$found")"
    fi
    [ -n "$LIB" ] || die "could not find the Inform 6 standard library.
  Install it with:  sudo apt-get install inform6-library
  or set INFORM6_LIB=/path/to/library (the directory containing parser.h)."
fi

[ -f "$SRC" ] || die "source not found: $SRC"

echo "compiler: $INFORM6"
echo "library:  $LIB"
# -v5: Z-machine version 5.  Serial/Release are fixed in the source, so the
# output is byte-for-byte reproducible.
"$INFORM6" -v5 "+include_path=$LIB" "$SRC" "$OUT"
[ -f "$OUT" ] || die "compilation produced no output"

if command -v md5sum >/dev/null 2>&1; then
    md5sum "$OUT"
else
    md5 -r "$OUT"
fi
