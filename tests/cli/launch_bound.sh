#!/usr/bin/env bash
# Launch-bound kernels and the stopping rule, on the fake runtime. With a host launch interval of 0.05 ms
# (FAKECUDA_LAUNCH_GAP_MS) and kernels of 0.002 ms (FAKECUDA_MS), host-paced launches take the interval each:
# every kernel variant is then a launch-bound candidate, timed as a CUDA graph at the kernels' own 0.002 ms (below
# graph_below_ms, 0.02 ms), launch-bound, with the host-paced time kept as host_inclusive_ms, and the console's
# note says so. memcpy's 4 KB copy (0.0004 ms on the fake) is a graph too, never launch-bound. Without the
# interval, kernels of the fake's default 0.5 ms are far longer than any launch interval: nothing is launch-bound,
# and the kernels stay on the stream. Either way the fake's identical times are precise at the least count that
# has a 95% interval (6), which is recorded. (Held launch-bound kernels: fake.timing_launches.)
# usage: launch_bound.sh CUDALAB LAB_FILE PLUGIN_DIR OUT
set -u
cudalab=$1 lab=$2 tp=$3 out=$4
check() {  # check FOLDER EXPECT_LAUNCH_BOUND KERNELS_AS_GRAPHS [LAUNCH_INTERVAL_MS]
  python3 - "$1/results.json" "$2" "$3" "${4:-0}" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
kernels_bound = sys.argv[2] == "true"
kernels_graphed = sys.argv[3] == "true"
interval_ms = float(sys.argv[4])
timed = [r for r in doc["results"] if r["timing"]["timed"]]
assert timed, "nothing timed"
for r in timed:
    t = r["timing"]
    print(f'{r["variant"]:8s} {r["point"]}: median {t["median_ms"]:.4f} ms, launch_bound {t.get("launch_bound", False)}, '
          f'host-inclusive {t.get("host_inclusive_ms")}, stopped by {t["stopped_by"]}, {len(t["repetition_ms"])} repetitions')
    bound = kernels_bound and r["variant"] != "memcpy"
    assert t.get("launch_bound", False) == bound, t
    graphed = kernels_graphed or r["variant"] == "memcpy"
    assert t.get("graph", False) == graphed, t
    assert t.get("held", False) == (bound and not graphed), t
    assert "graph_refused" not in t, t
    assert t["stopped_by"] == "precise" and len(t["repetition_ms"]) == 6, t
    assert t["interval_lo_ms"] <= t["median_ms"] <= t["interval_hi_ms"], t
    if bound:
        assert abs(t["median_ms"] - 0.002) < 1e-4, f"the GPU's own time is 0.002 ms, not {t['median_ms']}"
        assert t["host_inclusive_ms"] >= interval_ms - 1e-4, f"host-paced launches take the {interval_ms} ms interval: {t}"
    else:
        assert "host_inclusive_ms" not in t, t
print("ok")
PY
}
FAKECUDA_MS=0.002 FAKECUDA_LAUNCH_GAP_MS=0.05 "$cudalab" run "$lab" --plugin-path "$tp" --set n=1000 --set measure.min_time_ms=0.2 \
  --set measure.warmup_ms=0.2 --no-color --force --out "$out/bound" > "$out.bound.log" 2>&1 ||
  { echo "FAIL: run exited $?" >&2; cat "$out.bound.log" >&2; exit 1; }
# The console says so under each row.
grep -q "launch-bound: each launch ran 2.000 us on the GPU, shorter than the host's launch interval; timed as a CUDA graph" "$out.bound.log" ||
  { echo "FAIL: no launch-bound note in the console table:" >&2; cat "$out.bound.log" >&2; exit 1; }
check "$out/bound" true true 0.05 || exit 1
"$cudalab" run "$lab" --plugin-path "$tp" --set n=1000 --set measure.min_time_ms=2 --set measure.warmup_ms=2 \
  --format json --force --out "$out/paced" > /dev/null || { echo "FAIL: run exited $?" >&2; exit 1; }
check "$out/paced" false false
