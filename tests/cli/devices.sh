#!/usr/bin/env bash
# `run --devices` on the fake runtime (FAKECUDA_GPUS GPUs): lab files spread over one worker per GPU
# listed, a long one cut into parts of contiguous points (each a child of its own), host-bus parts
# alone, results in the order of the command line, each marked with its GPU, every GPU in the context,
# the schedule in context.json and a line per GPU at the end; with one GPU a lab file stays one child;
# a GPU that does not exist is refused with exit 5 before anything runs.
# usage: devices.sh CUDALAB FIXTURES TEST_PLUGIN_DIR OUT
set -u
cudalab=$1 fixtures=$2 tp=$3 out=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
labs=("$fixtures/testlab.toml" "$fixtures/verify_fails.toml")

# Two fake GPUs, listed in reverse: exit 6 (verify_fails.toml fails on purpose), both GPUs described.
msg=$(FAKECUDA_GPUS=2 "$cudalab" run --devices 1,0 "${labs[@]}" --plugin-path "$tp" --force --out "$out/two" 2>&1)
code=$?
echo "$msg"
[ "$code" = 6 ] || fail "two GPUs: exit $code, expected 6"
grep -q "^GPU 1: Fake GPU 1 (cudalab's test double)" <<<"$msg" || fail "the console names no GPU 1"
grep -q "^GPU 0: Fake GPU (cudalab's test double)" <<<"$msg" || fail "the console names no GPU 0"
grep -q "warning: the GPUs of --devices differ" <<<"$msg" || fail "no warning that the GPUs differ"
python3 - "$out/two/results.json" "${labs[@]}" <<'PY' || fail "results.json (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
devices = doc["context"]["devices"]
assert [d["ordinal"] for d in devices] == [1, 0], devices
assert devices[0]["device"]["name"].startswith("Fake GPU 1"), devices
files = [r["lab_file"] for r in doc["results"]]
assert files == [sys.argv[2]] * 6 + [sys.argv[3]] * 3, files  # the order of the command line
by_point = {}
for r in doc["results"]:
    assert r["device"] in (0, 1), r
    by_point.setdefault((r["lab_file"], r["point_index"]), set()).add(r["device"])
assert all(len(d) == 1 for d in by_point.values()), by_point  # a point's variants run on one GPU
# testlab.toml's two points are two parts, verify_fails.toml (untimed, short) is whole.
jobs = doc["context"]["schedule"]["jobs"]
assert [(j["lab_file"], j["first_point"], j["last_point"]) for j in jobs] == [
    (sys.argv[2], 0, 0), (sys.argv[2], 1, 1), (sys.argv[3], 0, 0)], jobs
print("ok: results.json")
PY
grep -q '^device,' "$out/two/results.csv" || grep -q ',device,' "$out/two/results.csv" || fail "results.csv has no device column"

# A long lab file over two GPUs: cut into parts of contiguous points, each a child of its own (10
# points of n x block: 7 parts, cut where n changes when that is near); the host-bus lab file's parts
# run with nothing beside them. Results in the order of the command line and complete; the schedule in
# context.json; a line per GPU at the end of the console.
sweep=("$fixtures/testlab_sweep.toml" "$fixtures/mapped_pinned_small.toml")
msg=$(FAKECUDA_GPUS=2 "$cudalab" run --devices 0,1 "${sweep[@]}" --plugin-path "$tp" --force --out "$out/parts" 2>&1)
code=$?
echo "$msg"
[ "$code" = 0 ] || fail "parts over two GPUs: exit $code"
for gpu in 0 1; do
  grep -Eq "^GPU $gpu: busy [0-9]+\.[0-9] s of [0-9]+\.[0-9] s, [0-9]+ jobs?$" <<<"$msg" || fail "no line for GPU $gpu at the end"
done
python3 - "$out/parts" "${sweep[@]}" <<'PY' || fail "parts over two GPUs (above)"
import json, sys
folder, sweep, mapped = sys.argv[1:4]
results = json.load(open(folder + "/results.json"))["results"]
ids = [(r["lab_file"], r["point_index"], r["variant"]) for r in results]
expected = [(sweep, p, v) for p in range(10) for v in ("memcpy", "copy", "scale")] + [
    (mapped, p, v) for p in range(4) for v in ("streams", "mapped_u1")]
assert ids == expected, ids  # every result once, in plan order
assert all(r["status"] == "ok" for r in results), [r for r in results if r["status"] != "ok"]
schedule = json.load(open(folder + "/context.json"))["schedule"]
assert 0 < schedule["probe_s"] <= schedule["end_s"], schedule
jobs = schedule["jobs"]
parts = [(j["lab_file"], j["first_point"], j["last_point"]) for j in jobs]
assert parts == [(sweep, 0, 0), (sweep, 1, 2), (sweep, 3, 3), (sweep, 4, 5), (sweep, 6, 6), (sweep, 7, 8),
                 (sweep, 9, 9), (mapped, 0, 1), (mapped, 2, 3)], parts
gpu_of = {(j["lab_file"], p): j["device"] for j in jobs for p in range(j["first_point"], j["last_point"] + 1)}
for r in results:
    assert r["device"] == gpu_of[(r["lab_file"], r["point_index"])], r  # each result from its part's child
for a in jobs:
    assert a["device"] in (0, 1) and a["start_s"] >= schedule["probe_s"] and a["duration_s"] >= 0, a
    assert a["start_s"] + a["duration_s"] <= schedule["end_s"] + 0.002, (a, schedule["end_s"])
    assert a["alone"] == (a["lab_file"] == mapped), a
    if a["alone"]:  # nothing ran while a host-bus part did (times are to the millisecond: 2 ms of slack)
        for b in jobs:
            assert b is a or b["start_s"] >= a["start_s"] + a["duration_s"] - 0.002 or \
                a["start_s"] >= b["start_s"] + b["duration_s"] - 0.002, (a, b)
print("ok: parts over two GPUs")
PY

# One GPU: a lab file stays one child; --isolate=variant over two GPUs: a job per point, as before.
msg=$("$cudalab" run --devices 0 "${sweep[0]}" --plugin-path "$tp" --force --out "$out/one" 2>&1)
code=$?
[ "$code" = 0 ] || { echo "$msg"; fail "one GPU: exit $code"; }
grep -Eq "^GPU 0: busy [0-9.]+ s of [0-9.]+ s, 1 job$" <<<"$msg" || { echo "$msg"; fail "one GPU: no line saying 1 job"; }
msg=$(FAKECUDA_GPUS=2 "$cudalab" run --devices 0,1 --isolate=variant "${sweep[0]}" --plugin-path "$tp" --force --out "$out/variants" 2>&1)
code=$?
[ "$code" = 0 ] || { echo "$msg"; fail "--isolate=variant over two GPUs: exit $code"; }
python3 - "$out" "${sweep[0]}" <<'PY' || fail "one GPU, or variants (above)"
import json, sys
out, sweep = sys.argv[1:3]
jobs = json.load(open(out + "/one/context.json"))["schedule"]["jobs"]
assert [(j["lab_file"], j["first_point"], j["last_point"], j["device"]) for j in jobs] == [(sweep, 0, 9, 0)], jobs
doc = json.load(open(out + "/variants/results.json"))
assert [(j["first_point"], j["last_point"]) for j in doc["context"]["schedule"]["jobs"]] == [(p, p) for p in range(10)]
assert len(doc["results"]) == 30 and all(r["status"] == "ok" for r in doc["results"]), doc["results"]
print("ok: one GPU, and variants")
PY

# One GPU listed twice: two workers on it (for testing; they share the GPU).
msg=$("$cudalab" run --devices 0,0 --isolate=variant --format json "${labs[0]}" --plugin-path "$tp" --force --out "$out/twice" 2>&1)
code=$?
[ "$code" = 0 ] || { echo "$msg"; fail "one GPU twice: exit $code"; }
grep -q '"pct_of_baseline": 100.0' <<<"$msg" || { echo "$msg"; fail "no baseline at 100 %"; }
python3 -c "
import json, sys
doc = json.load(open('$out/twice/results.json'))
assert [d['ordinal'] for d in doc['context']['devices']] == [0], doc['context']['devices']
assert len(doc['results']) == 6 and all(r['device'] == 0 and r['status'] == 'ok' for r in doc['results'])
print('ok: one GPU twice')" || fail "one GPU twice"

# A GPU the host does not have: the probe says so, exit 5, no results folder.
msg=$(FAKECUDA_GPUS=2 "$cudalab" run --devices 0,2 "${labs[0]}" --plugin-path "$tp" --force --out "$out/missing" 2>&1)
code=$?
echo "$msg"
[ "$code" = 5 ] || fail "a missing GPU: exit $code, expected 5"
grep -q "GPU 2 of --devices cannot run these lab files" <<<"$msg" || fail "the missing GPU is not named"
[ ! -e "$out/missing/results.jsonl" ] || fail "a results folder was written for a run that never started"

# CUDA_VISIBLE_DEVICES of the parent: --devices counts among the GPUs it shows.
msg=$(CUDA_VISIBLE_DEVICES=1 FAKECUDA_GPUS=2 "$cudalab" run --devices 0 "${labs[0]}" --plugin-path "$tp" --format json --force --out "$out/visible" 2>&1)
code=$?
[ "$code" = 0 ] || { echo "$msg"; fail "CUDA_VISIBLE_DEVICES=1 --devices 0: exit $code"; }
grep -q '"name": "Fake GPU 1 (cudalab' <<<"$msg" || { echo "$msg"; fail "--devices 0 did not mean the GPU CUDA_VISIBLE_DEVICES shows"; }
msg=$(CUDA_VISIBLE_DEVICES=1 FAKECUDA_GPUS=2 "$cudalab" run --devices 1 "${labs[0]}" --plugin-path "$tp" --force --out "$out/invisible" 2>&1)
code=$?
[ "$code" = 5 ] || { echo "$msg"; fail "CUDA_VISIBLE_DEVICES=1 --devices 1: exit $code, expected 5"; }
grep -q "GPU 1 is not among the GPUs CUDA_VISIBLE_DEVICES=1 shows" <<<"$msg" || { echo "$msg"; fail "no reason given"; }
echo "ok: --devices"
