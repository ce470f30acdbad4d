#!/usr/bin/env bash
# roundtrip.sh PROFKIT-OPT IN
# Checks that IN survives profkit: the IR of `profkit-opt IN -o IN.pk` equals
# the IR of IN, and IN gzip-compressed through stdin reads to the same IR.
# The output's compressed function ids must each name one function
# (function_ids.py), as KCachegrind reads them.
# Leaves IN.ir and IN.pk for further checks. Exits non-zero on a difference.
set -euo pipefail
opt=$1 in=$2
"$opt" "$in" -print-ir >"$in.ir"
"$opt" "$in" -o "$in.pk"
"$opt" "$in.pk" -print-ir >"$in.pk.ir"
python3 "$(dirname "$0")/function_ids.py" "$in.pk"
diff -u "$in.ir" "$in.pk.ir"
gzip -c "$in" | "$opt" - -print-ir >"$in.gz.ir"
diff -u "$in.ir" "$in.gz.ir"
