#!/usr/bin/env bash
# On a GPU machine: grade each example assignment's reference (the slot's code in plugins/LAB/slots) with
# the sandbox and without it (--no-sandbox), back to back with one build, and print both scores and both
# walls per assignment, then whether every score agrees. Not a test (it times things): the note of the
# trust-boundary work quotes it. A bwrap that is not installed can be named with CUDALAB_BWRAP.
# usage: grade_sandbox_compare.sh CUDALAB SOURCE_ROOT OUT
set -uo pipefail
cudalab=$1 root=$2 out=$3
rm -rf "$out" && mkdir -p "$out"
"$cudalab" assignment init --lab "$root/labs/reduction.toml" --slot reduce_sum --out "$out/init" > /dev/null || exit 1
secret=$out/init/secret.key
printf '%-24s %-10s %8s %8s %8s %8s\n' assignment slot sandbox s none s
agree=1
for dir in "$root"/labs/assignments/*/; do
  name=$(basename "$dir")
  toml=$dir/assignment.toml
  slot=$(sed -n 's/^slot *= *"\(.*\)"/\1/p' "$toml" | head -1)
  reference=$(ls "$root"/plugins/*/slots/"$slot".cu 2> /dev/null | head -1)
  [ -n "$reference" ] || { echo "$name: no reference for slot $slot"; agree=0; continue; }
  declare -A score wall
  for mode in sandbox none; do
    flag=(); [ "$mode" = none ] && flag=(--no-sandbox)
    start=$(date +%s.%N)
    "$cudalab" grade "$toml" --submission "$reference" --student reference --secret "$secret" "${flag[@]}" \
      --out "$out/$name-$mode" > "$out/$name-$mode.txt" 2>&1
    code=$?
    end=$(date +%s.%N)
    wall[$mode]=$(python3 -c "print(f'{$end - $start:.1f}')")
    score[$mode]=$(python3 -c "import json; d=json.load(open('$out/$name-$mode/grade.json')); print(f\"{d['score']:g}/{d['max_score']:g}\" + ('' if d.get('sandbox') == ('$mode' == 'sandbox') else ' (sandbox field wrong)'))" 2> /dev/null || echo "exit-$code")
  done
  printf '%-24s %-10s %8s %8s %8s %8s\n' "$name" "$slot" "${score[sandbox]}" "${wall[sandbox]}" "${score[none]}" "${wall[none]}"
  [ "${score[sandbox]}" = "${score[none]}" ] || agree=0
done
[ "$agree" = 1 ] && echo "every score agrees with and without the sandbox" || echo "SCORES DIFFER"
