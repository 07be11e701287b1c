#!/usr/bin/env bash
# The GPUs' clocks and throttling through NVML, recorded at the start and end of a run.
#   fake: on the fake runtime and its fake NVML (tests/support/fakenvml), whose values the environment
#         sets: both samples in context.json and results.json, report.md's lines; a warning on stderr,
#         in the context and in report.md when the GPU ran throttled (power violation time that grew, a
#         slowdown reason), none when it did not; in this process, isolated and over --devices; NVML
#         missing or failing said so while the run goes on; `cudalab device`.
#   real: on a real GPU and its driver's NVML: both samples recorded with their clocks, power and
#         temperature, and `cudalab device` shows them (exit 77 without a GPU).
# usage: gpu_state.sh fake|real CUDALAB FIXTURES TEST_PLUGIN_DIR OUT
set -u
mode=$1 cudalab=$2 fixtures=$3 tp=$4 out=$5
fail() { echo "FAIL: $*" >&2; exit 1; }
lab=$fixtures/testlab.toml
verify=$(dirname "$0")/../../configs/verify.toml  # nothing timed: the fake runs take no time

# run NAME EXPECTED_CODE ARGS...: a run of the test lab at one point into $out/NAME; its stderr in $err.
run() {
  local name=$1 expected=$2
  shift 2
  err=$("$cudalab" run "$lab" --set n=1000 --plugin-path "$tp" --force --out "$out/$name" "$@" 2>&1 >/dev/null)
  local code=$?
  echo "$err"
  [ "$code" = "$expected" ] || fail "$name: exit $code, expected $expected"
}

# check NAME PYTHON: the Python lines run with ctx (context.json), doc (results.json), md (report.md) and
# err (the run's stderr); an assertion that fails fails the test.
check() {
  local name=$1 code=$2
  ERR=$err python3 - "$out/$name" <<PY || fail "$name (above)"
import json, os, sys
folder = sys.argv[1]
ctx = json.load(open(folder + "/context.json"))
doc = json.load(open(folder + "/results.json"))
md = open(folder + "/report.md").read()
err = os.environ["ERR"]
assert doc["context"] == ctx, "results.json's context is not context.json's"
$code
print("ok: $name")
PY
}

if [ "$mode" = real ]; then
  if ! nvidia-smi -L >/dev/null 2>&1; then echo "skipped: no GPU"; exit 77; fi
  run real 0
  check real '
gpu = ctx["gpu_state"]
assert ctx["nvml"]["available"], ctx["nvml"]
assert ctx["nvml"]["driver_version"], ctx["nvml"]
assert gpu["pci_bus_id"] and gpu["unavailable"] is None, gpu
for when in ("start", "end"):
    s = gpu[when]
    for key in ("sm_clock_mhz", "max_sm_clock_mhz", "memory_clock_mhz", "temperature_c", "clocks_event_reasons_mask"):
        assert s[key] is not None, (when, key, s)
    assert 0 < s["sm_clock_mhz"] <= s["max_sm_clock_mhz"], s
assert gpu["end"]["taken_at_ms"] >= gpu["start"]["taken_at_ms"], gpu
t = gpu["throttling"]
assert t["throttled"] == bool(t["warning"]), t
assert ("ran throttled" in err) == t["throttled"], err
assert "GPU state (NVML, driver " in md, md'
  msg=$("$cudalab" device 2>&1) || fail "cudalab device: exit $?: $msg"
  echo "$msg"
  grep -q "^  now (NVML)        SM [0-9]* MHz of [0-9]*" <<<"$msg" || fail "cudalab device shows no clocks"
  grep -Eq "^  throttled         (no|yes: )" <<<"$msg" || fail "cudalab device does not say whether it is throttled"
  echo "ok: NVML on a real GPU"
  exit 0
fi

# A calm GPU, a timed run: both samples, no warning; context.json rewritten at the end with the end sample.
run calm 0
check calm '
gpu = ctx["gpu_state"]
assert ctx["nvml"] == {"available": True, "library": "libnvidia-ml.so.1", "reason": "", "driver_version": "999.99.99-fake"}, ctx["nvml"]
assert gpu["pci_bus_id"] == "0000:18:00.0" and gpu["unavailable"] is None, gpu
for when in ("start", "end"):
    s = gpu[when]
    assert (s["sm_clock_mhz"], s["memory_clock_mhz"], s["power_w"], s["temperature_c"]) == (1980, 2619, 120.0, 40), s
    assert s["clocks_event_reasons"] == [] and s["power_violation_ns"] == 0, s
assert not gpu["throttling"]["throttled"] and gpu["throttling"]["warning"] == "", gpu["throttling"]
assert "throttled" not in err, err
assert "- GPU state (NVML, driver 999.99.99-fake) at the start: SM 1980 MHz of 1980, memory 2619 MHz of 2619" in md, md
assert "Warning" not in md, md'

# Power capping during the run: its violation time grew by 2.5 s between the samples.
FAKENVML_POWER_VIOLATION_NS=1000,2500001000 run power 0 --config "$verify"
check power '
t = ctx["gpu_state"]["throttling"]
assert t["throttled"] and t["power_violation_s"] == 2.5 and t["thermal_violation_s"] == 0.0, t
assert t["warning"].startswith("GPU 0 (Fake GPU (cudalab'"'"'s test double)) ran throttled during the "), t
assert "power capping for 2.500 s" in t["warning"], t
assert "cudalab: warning: " + t["warning"] in err, err
assert "- **Warning:** GPU 0 (Fake GPU" in md, md'

# Isolated: the parent samples the GPU its children ran on; a slowdown reason at the end is throttling.
FAKENVML_REASONS=0,0x41 run isolated 0 --isolate --config "$verify"
check isolated '
gpu = ctx["gpu_state"]
assert gpu["start"]["clocks_event_reasons"] == [] and gpu["end"]["clocks_event_reasons"] == ["gpu_idle", "hw_thermal_slowdown"], gpu
assert gpu["throttling"]["slowdown_reasons"] == ["hw_thermal_slowdown"], gpu["throttling"]
assert err.count("ran throttled") == 1 and "slowdown reasons active at its start or end: hw_thermal_slowdown" in err, err'

# --devices: each GPU sampled by its own PCI bus id; only the hot one warned of.
FAKECUDA_GPUS=2 FAKENVML_GPU=1 FAKENVML_THERMAL_VIOLATION_NS=0,1000000000 run devices 0 --devices 1,0 --config "$verify"
check devices '
devices = ctx["devices"]
assert [(d["ordinal"], d["gpu_state"]["pci_bus_id"]) for d in devices] == [(1, "0000:19:00.0"), (0, "0000:18:00.0")], devices
assert devices[0]["gpu_state"]["throttling"]["throttled"] and not devices[1]["gpu_state"]["throttling"]["throttled"], devices
assert devices[1]["gpu_state"]["end"]["thermal_violation_ns"] == 0, devices[1]
assert ctx["gpu_state"] == devices[0]["gpu_state"], "the context'"'"'s own gpu_state is not the first GPU'"'"'s"
assert err.count("ran throttled") == 1 and "warning: GPU 1 (Fake GPU 1 (cudalab'"'"'s test double)) ran throttled" in err, err
assert "thermal slowdown for 1.000 s" in err, err
assert "- GPU 1: state (NVML" in md and "- GPU 0: state (NVML" in md, md'

# No NVML: said once, recorded with the reason; the run goes on and exits 0.
CUDALAB_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 run missing 0 --config "$verify"
check missing '
assert not ctx["nvml"]["available"] and "cannot open shared object file" in ctx["nvml"]["reason"], ctx["nvml"]
gpu = ctx["gpu_state"]
assert gpu["start"] is None and gpu["end"] is None and gpu["unavailable"].startswith("NVML is unavailable: "), gpu
assert err.count("note: the GPUs'"'"' clocks and throttling are not recorded: NVML is unavailable: /nonexistent/") == 1, err
assert "- GPU state not recorded: NVML is unavailable" in md, md'

# A driver NVML cannot talk to: likewise.
FAKENVML_INIT_ERROR=9 run no_driver 0 --isolate --config "$verify"
check no_driver '
assert ctx["nvml"]["reason"] == "nvmlInit_v2 failed: Driver Not Loaded (NVML error 9)", ctx["nvml"]'

# `cudalab device`: the state now, throttled or not, as text and JSON.
msg=$("$cudalab" device 2>&1) || fail "device: exit $?"
echo "$msg"
grep -q "^  now (NVML)        SM 1980 MHz of 1980, memory 2619 MHz of 2619, 120.0 W of 700 W, 40 °C, P0" <<<"$msg" ||
  fail "device: no clocks"
grep -q "^  throttled         no$" <<<"$msg" || fail "device: a calm GPU said throttled"
grep -q "^  driver            999.99.99-fake, PCI bus id 0000:18:00.0$" <<<"$msg" || fail "device: no driver"
msg=$(FAKENVML_REASONS=0x9 "$cudalab" device 2>&1) || fail "device (slowed): exit $?"
grep -q "^  throttled         yes: hw_slowdown$" <<<"$msg" || { echo "$msg"; fail "device: the slowdown is not said"; }
msg=$(CUDALAB_NVML_LIBRARY=/nonexistent/libnvidia-ml.so.1 "$cudalab" device 2>&1) || fail "device (no NVML): exit $?"
grep -q "^  now (NVML)        unknown: NVML is unavailable: /nonexistent/libnvidia-ml.so.1" <<<"$msg" ||
  { echo "$msg"; fail "device: no NVML not said"; }
"$cudalab" device --format json | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["nvml"]["available"] and j["pci_bus_id"] == "0000:18:00.0", j
assert j["gpu_sample"]["sm_clock_mhz"] == 1980 and j["gpu_sample_unavailable"] is None, j
print("ok: device --format json")' || fail "device --format json (above)"
echo "ok: GPU state through the fake NVML"
