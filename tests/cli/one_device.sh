#!/usr/bin/env bash
# `--device N` on the fake runtime (FAKECUDA_GPUS GPUs): run on GPU N alone, in this process and
# isolated (the one-GPU case of --devices), every result and the context naming it; `device --device
# N`; a GPU that is not there, or that CUDA_VISIBLE_DEVICES hides, refused with exit 5 before anything runs.
# usage: one_device.sh CUDALAB FIXTURES TEST_PLUGIN_DIR OUT
set -u
cudalab=$1 fixtures=$2 tp=$3 out=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
lab=$fixtures/testlab.toml
export FAKECUDA_GPUS=2

# results.json of a run on GPU 1 of the two: the context lists it alone, every result ran there.
check_on_gpu1() {
  python3 - "$1/results.json" <<'PY' || fail "$1/results.json (above)"
import json, sys
doc = json.load(open(sys.argv[1]))
devices = doc["context"]["devices"]
assert [d["ordinal"] for d in devices] == [1], devices
assert devices[0]["device"]["name"].startswith("Fake GPU 1"), devices
assert doc["context"]["device"]["name"].startswith("Fake GPU 1"), doc["context"]["device"]
assert len(doc["results"]) == 6 and all(r["device"] == 1 and r["status"] == "ok" for r in doc["results"]), doc["results"]
print("ok:", sys.argv[1])
PY
}
for mode in here isolated; do
  extra=()
  [ "$mode" = isolated ] && extra=(--isolate)
  msg=$("$cudalab" run --device 1 "${extra[@]}" "$lab" --plugin-path "$tp" --force --out "$out/$mode" 2>&1)
  code=$?
  echo "$msg"
  [ "$code" = 0 ] || fail "--device 1 ($mode): exit $code"
  grep -q "^GPU 1: Fake GPU 1 (cudalab's test double)" <<<"$msg" || fail "--device 1 ($mode): the console names no GPU 1"
  grep -q "on GPU 1" <<<"$msg" || fail "--device 1 ($mode): the table does not say the results are GPU 1's"
  check_on_gpu1 "$out/$mode"
done

# A GPU that is not there: exit 5, said so, no results folder.
for mode in here isolated; do
  extra=()
  [ "$mode" = isolated ] && extra=(--isolate)
  msg=$("$cudalab" run --device 2 "${extra[@]}" "$lab" --plugin-path "$tp" --force --out "$out/missing_$mode" 2>&1)
  code=$?
  echo "$msg"
  [ "$code" = 5 ] || fail "--device 2 of 2 ($mode): exit $code, expected 5"
  grep -q "GPU 2 of --device cannot run these lab files" <<<"$msg" || fail "--device 2 ($mode): the GPU is not named"
  [ ! -e "$out/missing_$mode/results.jsonl" ] || fail "--device 2 ($mode): a results folder for a run that never started"
done

# --device counts among the GPUs CUDA_VISIBLE_DEVICES shows.
msg=$(CUDA_VISIBLE_DEVICES=1 "$cudalab" run --device 0 "$lab" --plugin-path "$tp" --format json --force --out "$out/visible" 2>&1)
code=$?
[ "$code" = 0 ] || { echo "$msg"; fail "CUDA_VISIBLE_DEVICES=1 --device 0: exit $code"; }
grep -q '"name": "Fake GPU 1 (cudalab' <<<"$msg" || { echo "$msg"; fail "--device 0 did not mean the GPU CUDA_VISIBLE_DEVICES shows"; }
msg=$(CUDA_VISIBLE_DEVICES=1 "$cudalab" run --device 1 "$lab" --plugin-path "$tp" --force --out "$out/invisible" 2>&1)
code=$?
[ "$code" = 5 ] || { echo "$msg"; fail "CUDA_VISIBLE_DEVICES=1 --device 1: exit $code, expected 5"; }
grep -q -- "--device: GPU 1 is not among the GPUs CUDA_VISIBLE_DEVICES=1 shows" <<<"$msg" || { echo "$msg"; fail "no reason given"; }

# `device --device N`: that GPU's properties.
msg=$("$cudalab" device --device 1 2>&1)
code=$?
echo "$msg"
[ "$code" = 0 ] || fail "device --device 1: exit $code"
grep -q "^Fake GPU 1 (cudalab's test double) .*, GPU 1 (--device)" <<<"$msg" || fail "device --device 1 does not show GPU 1"
msg=$("$cudalab" device --device 1 --format json 2>&1)
grep -q '"ordinal": 1' <<<"$msg" || { echo "$msg"; fail "device --device 1 --format json: no ordinal 1"; }
msg=$("$cudalab" device --device 5 2>&1)
code=$?
[ "$code" = 5 ] || { echo "$msg"; fail "device --device 5: exit $code, expected 5"; }
grep -q "there is no GPU 5" <<<"$msg" || { echo "$msg"; fail "device --device 5: not said"; }
echo "ok: --device"
