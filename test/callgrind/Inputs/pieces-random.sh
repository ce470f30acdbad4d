#!/usr/bin/env bash
# pieces-random.sh PROFKIT-OPT PYTHON DIR FROM TO
# Makes a callgrind file in DIR for each seed from FROM to TO
# (random-callgrind.py) and checks that it reads in two, three and four
# pieces as in one (pieces-equal.sh): prints each seed whose reads differ,
# then how many of the files split in two.
set -uo pipefail
opt=$1 python=$2 dir=$3
here=$(dirname "$0")
split=0
for seed in $(seq "$4" "$5"); do
  file=$dir/random-$seed.out
  "$python" "$here/random-callgrind.py" "$seed" >"$file" || exit 1
  if notes=$(bash "$here/pieces-equal.sh" "$opt" "$file" 2>"$file.diff"); then
    [ -z "$notes" ] && split=$((split + 1))
  else
    echo "seed $seed: the reads differ ($file.diff)"
  fi
done
echo "split in two: $split of $(($5 - $4 + 1))"
