#!/usr/bin/env bash
# Build Zork I, II and III story files (Z-machine v3) from Infocom's ZIL source
# as published by Microsoft under the MIT licence (github.com/historicalsource/
# zork1, zork2, zork3), using the zorkie compiler (pip install zorkie; tested
# with zorkie 0.2.0). The sources are NOT part of this repository: point the
# script at a checkout kept anywhere.
#
#   scripts/build_zork.sh SRC_DIR OUT_DIR
#
#   SRC_DIR  either a folder holding zork1/ zork2/ zork3/ (any subset), each a
#            checkout of the matching historicalsource repository, or a single
#            game's folder (the one containing zork1.zil, zork2.zil or zork3.zil)
#   OUT_DIR  where zork1.z3, zork2.z3 and zork3.z3 are written (created if needed)
#
# The source folders are never modified: each game is compiled from a copy in a
# temporary staging folder. The published trees are not quite complete, so:
#   * a file named by INSERT-FILE in zorkN.zil but missing from the game's folder
#     (zork2 and zork3 ship no gclock.zil, zork3 no gmain.zil) is borrowed from a
#     sibling game folder, zork1 first: its g*.zil files are the last revision of
#     the "generic" trilogy files (they carry the ZORK-NUMBER 3 code zork3 needs),
#     then the other game; a warning names each borrowed file;
#   * routines zorkie reports as undefined (zork2 calls META-LOC but never
#     defines it) are copied verbatim from a sibling game's sources into an extra
#     file passed with -i; only if none is found is --allow-undefined-routines used.
#
# Environment: ZORKIE (compiler command, default zorkie); ZIL_SERIAL (optional
# 6 digits: written over the header serial, which zorkie sets to the build date,
# so that rebuilds on different days give identical bytes).
set -euo pipefail

usage() { echo "usage: $0 SRC_DIR OUT_DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
SRC_ARG="$1"; OUT_ARG="$2"
ZORKIE="${ZORKIE:-zorkie}"
SERIAL="${ZIL_SERIAL:-}"
[ -z "$SERIAL" ] || [[ "$SERIAL" =~ ^[0-9]{6}$ ]] || { echo "ZIL_SERIAL must be 6 digits" >&2; exit 2; }

command -v "$ZORKIE" >/dev/null || { echo "zorkie not found (pip install zorkie)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "python3 is required" >&2; exit 1; }
[ -d "$SRC_ARG" ] || { echo "no such folder: $SRC_ARG" >&2; exit 1; }
SRC="$(cd "$SRC_ARG" && pwd)"
mkdir -p "$OUT_ARG"
OUT="$(cd "$OUT_ARG" && pwd)"

# Which games are there, and where do sibling games live?
declare -A GAME_DIR=()
single=""
for n in 1 2 3; do
    [ -f "$SRC/zork$n.zil" ] && single="$n"
done
if [ -n "$single" ]; then
    GAME_DIR[$single]="$SRC"
    PARENT="$(dirname "$SRC")"
else
    PARENT="$SRC"
fi
for n in 1 2 3; do
    [ -n "${GAME_DIR[$n]:-}" ] && continue
    [ -f "$PARENT/zork$n/zork$n.zil" ] && GAME_DIR[$n]="$PARENT/zork$n"
done
if [ -n "$single" ]; then
    GAMES="$single"
else
    GAMES=""
    for n in 1 2 3; do [ -n "${GAME_DIR[$n]:-}" ] && GAMES="$GAMES $n"; done
fi
[ -n "$GAMES" ] || { echo "no zork1/zork2/zork3 sources (zorkN.zil) found under $SRC" >&2; exit 1; }

siblings() {  # siblings N -> sibling game numbers, preferred first
    case "$1" in 1) echo "3 2" ;; 2) echo "1 3" ;; 3) echo "1 2" ;; esac
}

# Copy routines NAME... verbatim (string- and comment-aware bracket matching)
# from the first file that defines them; prints the names it could not find.
extract_routines() {  # extract_routines OUTFILE "NAMES" FILE...
    python3 - "$@" <<'PY'
import re, sys
out, names, files = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
def routine_end(t, i):
    depth, j, n = 0, i, len(t)
    while j < n:
        c = t[j]
        if c == '"':                       # string literal, \ escapes
            j += 1
            while j < n and t[j] != '"':
                j += 2 if t[j] == '\\' else 1
        elif c == '\\':                    # quoted character
            j += 1
        elif c in '<([':
            depth += 1
        elif c in '>)]':
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return None
found, missing = [], []
for name in names:
    pat = re.compile(r'(?m)^<ROUTINE\s+' + re.escape(name) + r'[\s(]')
    for f in files:
        t = open(f, encoding='latin-1', newline='').read()
        m = pat.search(t)
        end = routine_end(t, m.start()) if m else None
        if end:
            found.append(';"%s: copied from %s by build_zork.sh"\n%s\n' % (name, f, t[m.start():end]))
            break
    else:
        missing.append(name)
open(out, 'w', encoding='latin-1', newline='').write('\n'.join(found))
print(' '.join(missing))
PY
}

built=()
for n in $GAMES; do
    game="zork$n"; dir="${GAME_DIR[$n]}"
    stage="$(mktemp -d)"
    trap 'rm -rf "$stage"' EXIT
    cp "$dir"/*.zil "$stage"/
    echo "== $game (sources: $dir)"

    # INSERT-FILE "X" (or the IFILE macro over it, as zork2.zil has) is looked up as x.zil next to the main file.
    for inc in $(grep -oiE '<(INSERT-FILE|IFILE)[[:space:]]+"[^"]+"' "$dir/$game.zil" \
                 | sed -E 's/.*"([^"]+)"/\1/' | tr 'A-Z' 'a-z'); do
        [ -f "$stage/$inc.zil" ] && continue
        borrowed=""
        for s in $(siblings "$n"); do
            sd="${GAME_DIR[$s]:-}"
            if [ -n "$sd" ] && [ -f "$sd/$inc.zil" ]; then
                cp "$sd/$inc.zil" "$stage/"
                borrowed="$sd/$inc.zil"
                break
            fi
        done
        if [ -n "$borrowed" ]; then
            echo "warning: $game has no $inc.zil; using $borrowed" >&2
        else
            echo "error: $game needs $inc.zil, which is neither in $dir nor in a sibling game folder" >&2
            exit 1
        fi
    done

    out="$OUT/$game.z3"
    args=("$game.zil" -o "$out" -v 3)
    log="$stage/zorkie.log"
    if ! (cd "$stage" && "$ZORKIE" "${args[@]}") >"$log" 2>&1; then
        undefined="$(grep -oE 'undefined routine\(s\): .*' "$log" | head -1 | sed -E 's/.*: //; s/,/ /g' || true)"
        if [ -z "$undefined" ]; then
            cat "$log" >&2
            echo "error: zorkie failed for $game" >&2
            exit 1
        fi
        echo "note: $game leaves routine(s) undefined: $undefined" >&2
        files=()
        for s in $(siblings "$n"); do
            sd="${GAME_DIR[$s]:-}"
            [ -n "$sd" ] && for f in "$sd"/*.zil; do files+=("$f"); done
        done
        compat="compat-undefined.zil"
        missing=""
        if [ ${#files[@]} -gt 0 ]; then
            missing="$(extract_routines "$stage/$compat" "$undefined" "${files[@]}")"
        else
            missing="$undefined"
        fi
        if [ -s "$stage/$compat" ]; then
            echo "warning: $game: using routine(s) copied from sibling sources:" \
                 "$(grep -oE '^;"[^:]+: copied from [^ ]+' "$stage/$compat" | sed 's/^;"//' | tr '\n' ';')" >&2
            args+=(-i "$compat")
        fi
        if [ -n "$missing" ]; then
            echo "warning: $game: no definition found for $missing; building with --allow-undefined-routines" >&2
            args+=(--allow-undefined-routines)
        fi
        (cd "$stage" && "$ZORKIE" "${args[@]}") >"$log" 2>&1 || { cat "$log" >&2; echo "error: zorkie failed for $game" >&2; exit 1; }
    fi
    grep -iE 'warning' "$log" >&2 || true
    [ -s "$out" ] || { echo "error: $out was not written" >&2; exit 1; }
    if [ -n "$SERIAL" ]; then
        printf '%s' "$SERIAL" | dd of="$out" bs=1 seek=18 conv=notrunc status=none
    fi
    echo "built: $ZORKIE ${args[*]}  (in $stage, a staged copy of $dir)"
    built+=("$out")
    rm -rf "$stage"; trap - EXIT
done

echo "zorkie $(python3 -c 'import importlib.metadata as m; print(m.version("zorkie"))' 2>/dev/null || echo '?')"
for f in "${built[@]}"; do
    printf '%s  %s bytes  %s\n' "$(md5sum < "$f" | cut -d' ' -f1)" "$(wc -c < "$f" | tr -d ' ')" "$f"
done
