#!/usr/bin/env bash
# `cudalab run --profile`.
#   fake: on the fake CUDA runtime with a fake ncu (tests/support/fakencu): the counters of the CSV it
#         hands back beside the model's in every output, ncu started as it must be (clocks left alone,
#         only the variants' NVTX ranges, the program's own process); without ncu, with an ncu that may
#         not read the counters (ERR_NVGPUCTRPERM) and with one that fails before running anything, the
#         run says so once and goes on without counters, its exit code a normal run's; the options it
#         cannot go with.
#   real: on a GPU with the toolkit's ncu: every kernel of the test lab, of labs/reduction.toml at
#         n = 1Mi and of labs/transpose_shapes.toml at four odd shapes counted in its variant's range,
#         the test lab's copy matching the model, reduction's and the transposes' requests equal to the
#         model's (shared ones: SASS's count), reduction's global sectors per request within 2% and every
#         transpose matching; labs/histogram.toml at n = 1Mi over 32 and 4096 bins (global atomics
#         serialised on a word, shared atomics combined on one) with every atomic request equal and every
#         variant matching (exit 77 without a GPU, without ncu, or without permission to read the
#         counters).
# usage: profile.sh fake|real CUDALAB FIXTURES TEST_PLUGIN_DIR FAULTY_PLUGIN_DIR WORK_DIR
set -u
mode=$1 cudalab=$2 fixtures=$3 tp=$4 faulty=$5 work=$6
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work/bin" && cd "$work" || fail "no work folder"
labs=$(cd "$fixtures/../../labs" && pwd)

if [ "$mode" = real ]; then
  if ! nvidia-smi -L >/dev/null 2>&1; then echo "skipped: no GPU"; exit 77; fi
  cp "$fixtures/cli/testlab.toml" lab.toml
  "$cudalab" run --profile lab.toml --plugin-path "$tp" --out "$work/testlab" >testlab.txt 2>testlab.err
  code=$?
  grep -q "no ncu\|ERR_NVGPUCTRPERM" testlab.err && { echo "skipped: $(cat testlab.err)"; exit 77; }
  [ $code = 0 ] || fail "testlab: exit $code: $(cat testlab.err)"
  "$cudalab" run --profile "$labs/reduction.toml" --set n=1Mi --out "$work/reduction" >reduction.txt 2>reduction.err ||
    fail "reduction: exit $?: $(cat reduction.err)"
  "$cudalab" run --profile "$labs/transpose_shapes.toml" --set "sweep.rows=[33,1000]" --set "sweep.cols=[3,65]" \
    --out "$work/transpose_shapes" >transpose_shapes.txt 2>transpose_shapes.err ||
    fail "transpose_shapes: exit $?: $(cat transpose_shapes.err)"
  "$cudalab" run --profile "$labs/histogram.toml" --set n=1Mi --set "sweep.bins=[32,4096]" --out "$work/histogram" \
    >histogram.txt 2>histogram.err || fail "histogram: exit $?: $(cat histogram.err)"
  python3 - "$work" <<'PY' || fail "the counters (above)"
import json, sys
work = sys.argv[1]
for lab in ("testlab", "reduction", "transpose_shapes", "histogram"):
    doc = json.load(open(f"{work}/{lab}/results.json"))
    assert doc["context"]["counters"].startswith("Nsight Compute"), doc["context"]["counters"]
    for r in doc["results"]:
        m = r.get("measured")
        assert m is not None, (lab, r["variant"], "no counters")
        if r["model"] is not None:
            assert m["kernels"] > 0, (lab, r["variant"], "no kernel counted in its range")
        if lab == "testlab" and r["variant"] == "copy":
            assert r["counters_verdict"] == "matches", (r["point"], r["counters_verdict"], m)
        if lab != "testlab" and r["model"] is not None:
            for kind in ("global_load", "global_store", "global_atomic", "shared_load", "shared_store", "shared_atomic"):
                assert r["model"][kind]["requests"] == m[kind]["requests"], (r["variant"], kind, r["model"][kind], m[kind])
            assert "s/r" not in r["counters_verdict"], (r["variant"], r["counters_verdict"])
        if lab in ("transpose_shapes", "histogram") and r["model"] is not None:
            assert r["counters_verdict"] == "matches", (r["point"], r["variant"], r["counters_verdict"])
    print(f"ok: {lab}: " + ", ".join(f"{r['variant']} {r['counters_verdict']}" for r in doc["results"]))
PY
  echo "ok"
  exit 0
fi
ln -s "$(cd "$(dirname "$0")/../support/fakencu" && pwd)/ncu" bin/ncu
cp "$fixtures/cli/testlab.toml" lab.toml  # the fake's CSV names lab.toml's ranges
export FAKE_NCU_CSV=$fixtures/profile/fake_ncu_testlab.csv FAKE_NCU_LOG=$work/ncu.log
unset CUDALAB_NCU

# run NAME EXPECTED_CODE [ENV=VALUE...] -- ARGS...: `cudalab run --profile ARGS` into $work/NAME with
# fake ncu first on PATH; its stdout in $out, its stderr in $err.
run() {
  local name=$1 expected=$2
  shift 2
  local env=()
  while [ "$1" != "--" ]; do env+=("$1"); shift; done
  shift
  out=$(env PATH="$work/bin:$PATH" "${env[@]}" "$cudalab" run --profile --plugin-path "$tp" --out "$work/$name" "$@" \
    2>"$work/$name.err")
  local code=$?
  err=$(cat "$work/$name.err")
  [ "$code" = "$expected" ] || fail "$name: exit $code, expected $expected: $err"
}

# With counters: the verdict under each row, the context names ncu, the raw data kept beside the results.
run counted 0 -- lab.toml
grep -q "^      measured: ld s/r 4.00, st s/r 4.00 - matches$" <<<"$out" || fail "no matching line: $out"
grep -q "^      measured: ld s/r 4.50, st s/r 4.00 - differs: ld s/r +12.5%$" <<<"$out" || fail "no differing line: $out"
grep -q "^      measured: no kernel - not modelled$" <<<"$out" || fail "memcpy's line: $out"
grep -q "note" <<<"$err" && fail "a run with counters has notes: $err"
for f in ncu.csv ncu.ncu-rep results.csv report.md plots/lab.svg; do [ -s "counted/$f" ] || fail "no counted/$f"; done
python3 - "$work/counted" <<'PY' || fail "counted's results (above)"
import csv, json, sys
folder = sys.argv[1]
doc = json.load(open(folder + "/results.json"))
assert doc["context"]["counters"].startswith("Nsight Compute 2025.3.1.0 ("), doc["context"]["counters"]
assert not any(r["timing"]["timed"] for r in doc["results"]), "something was timed"
by = {(r["point_index"], r["variant"]): r for r in doc["results"]}
assert by[(1, "scale")]["measured"]["global_load"] == {"requests": 32768, "sectors": 147456, "sectors_per_request": 4.5}
assert by[(1, "scale")]["counters_verdict"] == "differs: ld s/r +12.5%"
assert by[(0, "copy")]["counters_verdict"] == "matches"
assert by[(0, "memcpy")]["measured"]["kernels"] == 0
rows = list(csv.DictReader(open(folder + "/results.csv")))
assert [r["counters"] for r in rows] == ["not modelled", "matches", "matches", "not modelled", "matches",
                                         "differs: ld s/r +12.5%"], [r["counters"] for r in rows]
assert rows[5]["measured_ld_sectors_per_request"] == "4.5"
md = open(folder + "/report.md").read()
assert "Counters (`run --profile`): Nsight Compute 2025.3.1.0" in md
assert "| differs: ld s/r +12.5% |" in md
svg = open(folder + "/plots/lab.svg").read()
assert "rings: counted by Nsight Compute" in svg and "gbps" not in svg
print("ok: counted")
PY
# --force replaces a profiled run's folder, ncu's files with it.
env PATH="$work/bin:$PATH" "$cudalab" run --profile --plugin-path "$tp" --out "$work/counted" --force lab.toml \
  >/dev/null 2>"$work/again.err" || fail "--force does not replace a profiled run: $(cat "$work/again.err")"
log=$(grep -m1 -- "--export" ncu.log)
grep -q -- "--clock-control none" <<<"$log" || fail "ncu may change the clocks: $log"
grep -q -- "--nvtx --nvtx-include regex:cudalab#.\*/" <<<"$log" || fail "ncu counts kernels outside the ranges: $log"
grep -q -- "--target-processes application-only" <<<"$log" || fail "ncu follows other processes: $log"
grep -q -- "__child whole_run --plan" <<<"$log" || fail "the child is not one in-process run: $log"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(any(r["timing"]["timed"] for r in d["results"]))' \
  "$work/counted/results.json" || fail "the child timed its variants"

# Without permission to read the counters: said once, the results without counters, exit 0.
run noperm 0 FAKE_NCU_MODE=noperm -- lab.toml
[ "$(grep -c "ERR_NVGPUCTRPERM" <<<"$err")" = 1 ] || fail "noperm: not said once: $err"
grep -q "cudalab: note: --profile: .*may not read this GPU's performance counters" <<<"$err" || fail "noperm: $err"
grep -q "measured" <<<"$out" && fail "noperm: counters shown: $out"
grep -q '"measured"' noperm/results.json && fail "noperm: counters in results.json"
grep -q '"counters": "none: ' noperm/context.json || fail "noperm: the context does not say why"
[ -e noperm/ncu.csv ] && fail "noperm: an ncu.csv without counters"

# An ncu that fails before running anything: the lab files run again without it.
run broken 0 FAKE_NCU_MODE=broken -- lab.toml
grep -q "ended without running the lab files: ==ERROR== unrecognised option" <<<"$err" || fail "broken: $err"
[ "$(grep -c "note" <<<"$err")" = 1 ] || fail "broken: more than one note: $err"
[ "$(grep -c '"variant"' broken/results.jsonl)" = 6 ] || fail "broken: not every result"

# No ncu at all ($CUDALAB_NCU names none): said once, the run goes on.
run missing 0 CUDALAB_NCU=$work/no-such-ncu -- lab.toml
[ "$(grep -c "note" <<<"$err")" = 1 ] || fail "missing: not one note: $err"
grep -q "CUDALAB_NCU names $work/no-such-ncu, which is not an executable file: the run goes on without counters" \
  <<<"$err" || fail "missing: $err"

# A variant that computes a wrong result: exit 6 as in a run without --profile.
run wrong 6 -- "$fixtures/cli/faulty_wrong.toml" --plugin-path "$faulty"

# Options that spread the run over processes or GPUs: refused before anything runs.
for opt in --isolate --isolate=variant "--devices 0" "--timeout 5"; do
  msg=$("$cudalab" run --profile $opt lab.toml --plugin-path "$tp" --out "$work/never" 2>&1); code=$?
  [ $code = 2 ] || fail "--profile $opt exited $code: $msg"
  grep -q "cannot go with ${opt%%[ =]*}" <<<"$msg" || fail "--profile $opt: $msg"
done
msg=$("$cudalab" run --profile --sanitize memcheck lab.toml --plugin-path "$tp" 2>&1); code=$?
[ $code = 2 ] && grep -q "cannot go together" <<<"$msg" || fail "--profile --sanitize exited $code: $msg"
[ ! -e "$work/never" ] || fail "a refused run made a results folder"
echo "ok"
