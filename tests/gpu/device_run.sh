#!/usr/bin/env bash
# The GPU machine's building-block run: GPU tests, the timing-agreement check, the device's ceilings
# and the given lab files, logs into OUT_DIR. Run from the repository root with a build folder
# prepared by ../shared/tools/device-pack (its device-lib/ holds the libraries that machine lacks).
# usage: tests/gpu/device_run.sh BUILD_DIR OUT_DIR [what...]   what: tests timing device labs:FILE,FILE[:ARGS]
set -uo pipefail
build=$1 out=$2
shift 2
export LD_LIBRARY_PATH=$PWD/$build/device-lib:${LD_LIBRARY_PATH:-}
mkdir -p "$out"
nvidia-smi -L
for what in "$@"; do
  case "$what" in
    tests)
      ctest --test-dir "$build" -L gpu --output-on-failure 2>&1 | tee "$out/gpu-tests.log" | tail -25 ;;
    timing)
      "$build/tests/bin/timing_agreement" tests/tools/timing_agreement.toml "$build/tests/fake_labs" 2>&1 | tee "$out/timing.log" ;;
    device)
      "$build/bin/cudalab" device 2>&1 | tee "$out/device.log" ;;
    labs:*)
      spec=${what#labs:}
      files=${spec%%:*}
      args=""; [ "$spec" != "$files" ] && args=${spec#*:}
      name=$(basename "${files%%,*}" .toml)
      # shellcheck disable=SC2086
      "$build/bin/cudalab" run ${files//,/ } --out "$out/$name" --no-color $args 2>&1 | tee "$out/$name.log"
      echo "exit code $?" | tee -a "$out/$name.log" ;;
    *) echo "device_run: unknown step $what" >&2 ;;
  esac
done
