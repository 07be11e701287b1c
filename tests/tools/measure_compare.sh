#!/usr/bin/env bash
# Not a test: what issue 33's "Done when" needs, back to back on one GPU, then its report
# (tests/tools/measure_report.py). Run it from the source tree's root:
#   tests/tools/measure_compare.sh OLD_BUILD NEW_BUILD OUT [LAB.toml ...]
# OLD_BUILD and NEW_BUILD are build folders (their bin/cudalab runs); the lab files default to every
# labs/*.toml. Each step is one call per lab file (a whole default run of the old build takes about 10
# minutes), so a subset can be given, and OUT can be filled over several calls: a step whose results are
# already in OUT is not run again. Steps, each lab file's results under OUT/<step>/<lab name>/:
#   old, new       run LAB at the default profile with each build, one after the other per lab file
#   thorough       configs/thorough.toml with the new build (labs/reduction.toml and labs/transpose.toml)
#   sizes1, sizes2 two default runs of labs/reduction_sizes.toml with the new build
#   quick          --config configs/quick.toml with the new build, every lab file in one call
#   fixed          where the quick run's time that is not timed GPU work goes (per lab file, new build):
#                  process start-up (--version), planning and the model (explain), set-up and
#                  verification (configs/verify.toml), then the quick run itself
# Each call's wall time goes to OUT/<step>/<lab name>.wall (seconds), its exit code to <lab name>.exit.
# On the fake CUDA runtime every step runs too, with the fake's figures (its kernels do nothing, so the
# labs' results fail verification); give it the labs' memory and skip its large copies:
#   LD_LIBRARY_PATH=NEW_BUILD/tests/fakecuda CUDALAB_FAKE_GPU=1 FAKECUDA_MEMORY=$((80 << 30)) \
#     FAKECUDA_SKIP_COPIES_ABOVE=$((1 << 20)) tests/tools/measure_compare.sh NEW_BUILD NEW_BUILD OUT labs/reduction_sizes.toml
set -uo pipefail
old=$1/bin/cudalab new=$2/bin/cudalab out=$3
shift 3
labs=("$@")
[ ${#labs[@]} -gt 0 ] || labs=(labs/*.toml)
mkdir -p "$out"

now() { echo "$EPOCHREALTIME"; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f\n", b - a }'; }
# run_step STEP NAME EXE ARGS...: one call, its wall time and exit code noted; skipped when done before.
run_step() {
  local step=$1 name=$2 exe=$3
  shift 3
  local dir="$out/$step/$name"
  if [ -f "$out/$step/$name.wall" ]; then return; fi
  mkdir -p "$out/$step"
  rm -rf "$dir"
  local start end code
  start=$(now)
  "$exe" "$@" --out "$dir" --no-color --format csv > "$out/$step/$name.log" 2>&1
  code=$?
  end=$(now)
  seconds "$start" "$end" > "$out/$step/$name.wall"
  echo "$code" > "$out/$step/$name.exit"
  echo "$step $name: exit $code in $(cat "$out/$step/$name.wall") s"
}
# time_only STEP NAME CMD...: the wall time of a command that writes no results folder.
time_only() {
  local step=$1 name=$2
  shift 2
  if [ -f "$out/$step/$name.wall" ]; then return; fi
  mkdir -p "$out/$step"
  local start end
  start=$(now)
  "$@" > "$out/$step/$name.log" 2>&1
  end=$(now)
  seconds "$start" "$end" > "$out/$step/$name.wall"
}

for lab in "${labs[@]}"; do
  name=$(basename "$lab" .toml)
  run_step old "$name" "$old" run "$lab"
  run_step new "$name" "$new" run "$lab"
done
for lab in "${labs[@]}"; do
  case $(basename "$lab") in
    reduction.toml | transpose.toml) run_step thorough "$(basename "$lab" .toml)" "$new" run "$lab" --config configs/thorough.toml ;;
    reduction_sizes.toml)
      run_step sizes1 reduction_sizes "$new" run "$lab"
      run_step sizes2 reduction_sizes "$new" run "$lab"
      ;;
  esac
done
run_step quick all "$new" run --config configs/quick.toml "${labs[@]}"
time_only fixed startup "$new" --version
for lab in "${labs[@]}"; do
  name=$(basename "$lab" .toml)
  time_only fixed "explain_$name" "$new" explain "$lab" --format json
  run_step fixed "verify_$name" "$new" run --config configs/verify.toml "$lab"
  run_step fixed "quick_$name" "$new" run --config configs/quick.toml "$lab"
done
python3 "$(dirname "$0")/measure_report.py" "$out"
