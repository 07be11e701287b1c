#!/usr/bin/env bash
# `run --devices` on the fake runtime (FAKECUDA_GPUS GPUs): lab files spread over one worker per GPU
# listed, results in the order of the command line, each marked with its GPU, every GPU in the
# context; a GPU that does not exist is refused with exit 5 before anything runs.
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
by_file = {}
for r in doc["results"]:
    assert r["device"] in (0, 1), r
    by_file.setdefault(r["lab_file"], set()).add(r["device"])
assert all(len(d) == 1 for d in by_file.values()), by_file  # a lab file runs on one GPU
assert by_file[sys.argv[2]] != by_file[sys.argv[3]], by_file  # one each, the first lab file on the first worker
print("ok: results.json")
PY
grep -q '^device,' "$out/two/results.csv" || grep -q ',device,' "$out/two/results.csv" || fail "results.csv has no device column"

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
