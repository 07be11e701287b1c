#!/usr/bin/env bash
# The grading-attack families of issue 31 graded on a GPU (exit 77 without one): the reduction-sum reference, then
# one fixture per trick, each with the outcome its header comment states (docs/grading.md, "Cheats and what stops
# them"). Performance is compared with the reference's own score in the same run, never with a fixed number:
# - when_poisoned (work only when checked): every correctness test passed, not held, at most 10% above the reference;
# - persisting_l2 (changed device state): the warning flag persisting_l2, at most 10% above the reference;
# - slow_baseline (slowed baseline, 182% of CUB before): at most 10% above the reference, or not scored at all (its
#   thread, alive from the load until the first call, may put kernels on a stream of its own into the census of
#   the student's verified run: census flags, correctness points lost, the performance test gated off);
# - kept_alive (kept-alive watchdog): its correctness tests end at its first empty line on descriptor 3, now its
#   socket to the harness ("not a reply"), or time out after the unit's 20 s;
# - warmup_replay and cache_result (replaying work done during the warm-up, caching by input): held, flag roofline;
# - compute_once (caching by input identity, leaving *out): flag verify_after_timing or roofline.
# Prints each one's bandwidth score beside the reference's.
# usage: grade_cheats_gpu.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
. "$(dirname "$0")/grade_gpu_common.sh"
score() {  # score NAME: the bandwidth test's median % of the baseline ("none" when it has none)
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=next(t.get('metric') for t in d['tests'] if t['id']=='bandwidth'); print(round(m['median'],1) if m else 'none')" \
    "$work/$1/grade.json"
}
at_most_ref() {  # at_most_ref NAME: its score is at most 10% above the reference's
  python3 -c "import sys; a,b=sys.argv[1],sys.argv[2]; sys.exit(0 if a!='none' and float(a) <= 1.10*float(b) else 1)" \
    "$(score "$1")" "$(score ref)" || fail "$1 scored $(score "$1")% of the baseline against the reference's $(score ref)%"
}

grade ref "$root/plugins/reduction/slots/reduce_sum.cu" ref
[ "$(score ref)" != none ] || fail "the reference's bandwidth has no score: $(status ref bandwidth)"
case "$(status ref bandwidth)" in passed | failed) ;; *) fail "the reference's bandwidth is $(status ref bandwidth)" ;; esac
if flags ref | grep -qw persisting_l2; then fail "the reference was said to leave persisting-L2 state"; fi

grade when_poisoned "$subs/when_poisoned.cu" when_poisoned
for t in odd-sizes large hidden-sizes; do
  [ "$(status when_poisoned $t)" = passed ] || fail "when_poisoned.cu's $t is $(status when_poisoned $t)"
done
case "$(status when_poisoned bandwidth)" in passed | failed) ;; *) fail "when_poisoned.cu's bandwidth is $(status when_poisoned bandwidth)" ;; esac
at_most_ref when_poisoned

grade persisting_l2 "$subs/persisting_l2.cu" persisting_l2
flags persisting_l2 | grep -qw persisting_l2 || fail "persisting_l2.cu raised no persisting_l2 flag: $(flags persisting_l2)"
at_most_ref persisting_l2

grade slow_baseline "$subs/slow_baseline.cu" slow_baseline
[ "$(score slow_baseline)" = none ] || at_most_ref slow_baseline

grade kept_alive "$subs/kept_alive.cu" kept_alive
case "$(status kept_alive odd-sizes)" in error | failed | timed_out) ;; *) fail "kept_alive.cu's odd-sizes is $(status kept_alive odd-sizes)" ;; esac
grep -q "not a reply\|timed out after 20 s" "$work/kept_alive/grade.json" || fail "kept_alive.cu's end is not reported"

for cheat in warmup_replay cache_result; do
  grade $cheat "$subs/$cheat.cu" $cheat
  [ "$(status $cheat bandwidth)" = held ] || fail "$cheat.cu's bandwidth is $(status $cheat bandwidth), not held"
  flags $cheat | grep -qw roofline || fail "$cheat.cu raised no roofline flag: $(flags $cheat)"
done

grade compute_once "$subs/compute_once.cu" compute_once
flags compute_once | grep -Eqw "verify_after_timing|roofline" || fail "compute_once.cu raised no flag: $(flags compute_once)"

echo "bandwidth, % of the baseline (CUB), grade.json flags:"
for name in ref when_poisoned persisting_l2 slow_baseline kept_alive warmup_replay cache_result compute_once; do
  printf '  %-14s %6s  %s\n' "$name" "$(score $name)" "$(flags $name)"
done
echo ok
