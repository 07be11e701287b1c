#!/usr/bin/env bash
# `cudalab grade` on a GPU (exit 77 without one), on the reduction-sum assignment and fixture
# submissions, looking at what does not depend on the GPU's speed: the reference passes every
# correctness and sanitizer test and is timed in rounds; a submission that only does the work on the
# first call at each input is caught (held above the roofline or wrong after timing); one tuned to the
# visible sizes fails the hidden test only; an endless kernel costs its own test (timed out) and the
# other tests are graded; a regrade draws the same hidden inputs, another student other ones.
# usage: grade_gpu.sh CUDALAB SOURCE_ROOT WORK_DIR
set -euo pipefail
cudalab=$1 root=$2 work=$3
. "$(dirname "$0")/grade_gpu_common.sh"
digests() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['staff']['input_digests'])" "$work/$1/grade.json"; }

grade ref "$root/plugins/reduction/slots/reduce_sum.cu" ref
for t in odd-sizes large hidden-sizes memcheck racecheck integrity-build integrity-inputs; do
  [ "$(status ref $t)" = passed ] || fail "the reference's $t is $(status ref $t)"
done
case "$(status ref bandwidth)" in passed | failed) ;; *) fail "the reference's bandwidth is $(status ref bandwidth)" ;; esac
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); m=next(t['metric'] for t in d['tests'] if t['id']=='bandwidth'); assert m['rounds']>=3 and m['ci'], m" \
  "$work/ref/grade.json" || fail "the reference's bandwidth was not timed in rounds with an interval"

grade once "$subs/compute_once.cu" once
case "$(status once bandwidth)" in held | failed) ;; *) fail "compute_once.cu's bandwidth is $(status once bandwidth)" ;; esac
flags once | grep -Eq "roofline|verify_after_timing" || fail "compute_once.cu raised no flag: $(flags once)"
[ "$(status once odd-sizes)" = passed ] || fail "compute_once.cu's first runs should verify"

grade visible "$subs/visible_only.cu" v1
[ "$(status visible odd-sizes)" = passed ] || fail "visible_only.cu fails a visible test"
[ "$(status visible hidden-sizes)" = failed ] || fail "visible_only.cu's hidden test is $(status visible hidden-sizes)"
grade visible-again "$subs/visible_only.cu" v1
grade visible-other "$subs/visible_only.cu" v2
[ "$(digests visible)" = "$(digests visible-again)" ] || fail "a regrade drew other hidden inputs"
[ "$(digests visible)" != "$(digests visible-other)" ] || fail "two students drew the same hidden inputs"

grade endless "$subs/endless_large.cu" endless
[ "$(status endless large)" = timed_out ] || fail "endless_large.cu's large test is $(status endless large)"
[ "$(status endless odd-sizes)" = passed ] || fail "the endless kernel cost other tests"
grep -q "timed out after 20 s" "$work/endless/grade.json" || fail "the timeout is not reported"
echo ok
