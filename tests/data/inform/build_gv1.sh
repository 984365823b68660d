#!/usr/bin/env bash
# Build gv1.z5 with grammar version 1 from Debian's Inform 6 library (6/12),
# which writes version 2 tables: a copy of the library is made to take
# version 1 (grammar alternatives 'a'/'b' spelled out as separate lines,
# "topic" as "special", the two "reverse" lines dropped, and a noun=Routine
# token's routine looked up as the old libraries did, where 6/12 takes its
# number for an attribute), as Inform 5 and early Inform 6 games were built.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
LIB="${INFORM6_LIB:-/usr/share/inform6/library}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
cp "$LIB"/* "$WORK"/
sed -i 's/^Constant Grammar__Version 2;/Default Grammar__Version 2;/' "$WORK/version.h"
sed -i '/-> Give reverse/d; /-> Show reverse/d' "$WORK/Grammar.h"
sed -i 's/found_tdata = token - 16;/found_tdata = #preactions_table-->(token - 16);/' "$WORK/Parser.h"
grep -q 'found_tdata = #preactions_table-->(token - 16);' "$WORK/Parser.h"
python3 - "$WORK/Grammar.h" <<'PY'
import itertools, re, sys
alternatives = re.compile(r"(?:'[^']*'/)+'[^']*'")
path = sys.argv[1]
out = []
for line in open(path, encoding="latin-1").read().split("\n"):
    if line.lstrip().startswith("*") and "->" in line:
        line = re.sub(r"\btopic\b", "special", line)
        groups = alternatives.findall(line)
        if groups:
            parts = alternatives.split(line)
            combos = list(itertools.product(*(g.split("/") for g in groups)))
            for n, combo in enumerate(combos):
                text = parts[0] + "".join(c + p for c, p in zip(combo, parts[1:]))
                # Only the last of the spelled-out lines may close the verb.
                out.append(text.rstrip().rstrip(";") if n < len(combos) - 1 else text)
            continue
    out.append(line)
open(path, "w", encoding="latin-1").write("\n".join(out))
PY
cd "$HERE"
inform6 -v5 +include_path="$WORK" gv1.inf gv1.z5
