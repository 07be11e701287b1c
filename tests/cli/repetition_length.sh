#!/usr/bin/env bash
# A timed repetition lasts the profile's min_time_ms, not more: on the fake runtime (0.5 ms per
# launch) each repetition's GPU time (samples / repetitions x batch x median) must lie between
# min_time_ms and one sample more (Google Benchmark's own estimate ran 40 % past it, and threw away
# the runs it estimated with). The four repetitions' times are kept in timing.repetition_ms.
# usage: repetition_length.sh CUDALAB LAB_FILE PLUGIN_DIR OUT
set -u
cudalab=$1 lab=$2 tp=$3 out=$4
"$cudalab" run "$lab" --plugin-path "$tp" --set measure.min_time_ms=20 --set measure.repetitions=4 --set measure.max_repetitions=4 \
  --format json --force --out "$out" > /dev/null || { echo "FAIL: run exited $?" >&2; exit 1; }
python3 - "$out/results.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
timed = [r for r in doc["results"] if r["timing"]["timed"]]
assert timed, "nothing timed"
for r in timed:
    t = r["timing"]
    per_sample = t["batch"] * t["median_ms"]
    repetition = t["samples"] / 4 * per_sample
    print(f'{r["variant"]:8s} n={r["point"]}: {t["samples"] // 4} samples of {per_sample:.3f} ms = {repetition:.2f} ms per repetition')
    assert 20 <= repetition + 1e-9 <= 20 + per_sample + 1e-9, f"a repetition of {repetition:.2f} ms for min_time_ms = 20"
    # Each repetition's time is kept (timing.repetition_ms), and the summary is of those.
    reps = sorted(t["repetition_ms"])
    assert len(reps) == 4, f"{len(reps)} repetition times for 4 repetitions"
    assert abs((reps[1] + reps[2]) / 2 - t["median_ms"]) <= 1e-12 and reps[0] == t["min_ms"] and reps[-1] == t["max_ms"], t
print("ok")
PY
