#!/usr/bin/env bash
# The processes of `cudalab run` under attack (the red-team review's findings, on the fake CUDA runtime):
# signals in the middle of a run, a parent that dies, a GPU probe that hangs or crashes, a child that
# floods its output, and lab files, profiles or the executable changed while an isolated run goes on.
# Each scenario starts cudalab, does something to it, and checks its exit code, its files and that no
# process of it is left behind.
# usage: process_faults.sh SCENARIO CUDALAB TEST_PLUGIN_DIR OUT_DIR
# Exits 77 (skip) unless CUDALAB_FAKE_GPU=1: the faults are injected through the fake runtime.
set -u
scenario=$1 cudalab=$2 plugins=$3 out=$4
fixtures=$(cd "$(dirname "$0")/../fixtures/cli" && pwd)
configs=$(cd "$(dirname "$0")/../../configs" && pwd)
if [ "${CUDALAB_FAKE_GPU:-0}" != 1 ]; then echo "skipped: needs the fake CUDA runtime"; exit 77; fi
command -v python3 >/dev/null || { echo "skipped: needs python3"; exit 77; }
rm -rf "$out"
mkdir -p "$out"
export FAKECUDA_SKIP_COPIES_ABOVE=$((16 << 20))  # the ceilings' large copies: timed, but no wall time
status=0
started=()  # every cudalab process a scenario saw, so none is left behind whatever happens

fail() {
  echo "FAIL: $*" >&2
  status=1
}
ok() { echo "ok: $*"; }

# alive PID: the process exists and is not a zombie.
alive() { [ -e "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -d' ' -f1)" != Z ]; }

# wait_for SECONDS COMMAND...: polls COMMAND every 0.02 s until it succeeds; false after SECONDS.
wait_for() {
  local tries=$(($1 * 50))
  shift
  for ((i = 0; i < tries; i++)); do
    "$@" && return 0
    sleep 0.02
  done
  return 1
}

# The children of cudalab process PID: the GPU probe, and the units (their command lines carry the ceilings).
probe_of() { pgrep -P "$1" -f '__child probe' | head -n 1; }
unit_of() { pgrep -P "$1" -f '__child unit' | head -n 1; }
has_probe() { [ -n "$(probe_of "$1")" ]; }
has_child() { [ -n "$(pgrep -P "$1")" ]; }
has_unit() { [ -n "$(unit_of "$1")" ]; }
is_dead() { ! alive "$1"; }

# start ARGS...: runs cudalab ARGS in the background (stdout and stderr to files); sets $pid.
start() {
  "$cudalab" "$@" >"$out/stdout" 2>"$out/stderr" &
  pid=$!
  started+=("$pid")
}

# wait_for_unit: waits (up to 60 s) for the unit child of $pid; sets $child and has it killed at the end.
wait_for_unit() {
  wait_for 60 has_unit "$pid" || fail "no unit child started"
  child=$(unit_of "$pid")
  started+=("$child")
}

# finish SECONDS: waits for $pid; sets $rc (killed and "timeout" when it does not end in time).
finish() {
  if ! wait_for "$1" is_dead "$pid"; then
    fail "cudalab did not end within $1 s"
    kill -KILL "$pid" 2>/dev/null
  fi
  wait "$pid" 2>/dev/null
  rc=$?
  echo "exit code $rc"
}

expect_rc() { if [ "$rc" = "$1" ]; then ok "exit code $1"; else fail "exit code $rc, expected $1"; fi; }
expect_stderr() {
  if grep -Eq -- "$1" "$out/stderr"; then ok "stderr matches /$1/"; else fail "stderr does not match /$1/"; fi
}

# results_ok FILE MIN: FILE is a JSON document with at least MIN results.
results_ok() {
  if python3 -c 'import json,sys; n=len(json.load(open(sys.argv[1]))["results"]); sys.exit(n < int(sys.argv[2]))' \
    "$1" "$2" 2>/dev/null; then
    ok "$1 holds at least $2 result(s)"
  else
    fail "$1 is not a JSON document with at least $2 result(s)"
  fi
}

# count REGEX: the result lines of results.jsonl that match.
count() { grep -Ec -- "$1" "$out/run/results.jsonl"; }
expect_count() {
  local n
  n=$(count "$3")
  if [ "$n" = "$2" ]; then ok "$1 ($n)"; else fail "$1: $n line(s) match /$3/, expected $2"; fi
}

# no_child_left PID...: none of these processes is still alive a few seconds later.
no_child_left() {
  local p
  for p in "$@"; do
    if wait_for 5 is_dead "$p"; then ok "process $p is gone"; else fail "process $p is still alive"; fi
  done
}

cleanup() {
  local p
  for p in "${started[@]}"; do
    for c in $(pgrep -P "$p" 2>/dev/null) $p; do kill -KILL "$c" 2>/dev/null; done
  done
  [ -n "${binary_copy:-}" ] && rm -f "$binary_copy"
}
trap cleanup EXIT

# A lab file of many points, for runs that must still be going when something happens to them.
many_points() {
  printf '[lab]\nplugin = "testlab"\nvariants = ["memcpy"]\n[sweep]\nn = { from = 1024, to = 409600, step = 1024 }\n' \
    >"$out/many.toml"
}

common=(--plugin-path "$plugins" --out "$out/run")

case $scenario in
  redteam_f07_sighup_isolated)
    # The terminal closes during an isolated run whose child is stuck in a kernel: the child is killed,
    # what was measured is written, the run ends as interrupted.
    export FAKECUDA_HANG_SYNC=1
    start run --isolate --timeout 60 --config "$configs/verify.toml" "${common[@]}" "$fixtures/testlab.toml"
    wait_for_unit
    kill -HUP "$pid"
    finish 10
    expect_rc 130
    expect_stderr "interrupted"
    results_ok "$out/run/results.json" 0
    no_child_left "$child"
    ;;
  redteam_f07_sigkill_isolated)
    # The parent is killed outright (no handler runs): its unit child must die with it.
    export FAKECUDA_HANG_SYNC=1
    start run --isolate --config "$configs/verify.toml" "${common[@]}" "$fixtures/testlab.toml"
    wait_for_unit
    kill -KILL "$pid"
    finish 5
    no_child_left "$child"
    ;;
  redteam_f07_sigpipe)
    # stdout's reader is gone before the first result (`cudalab run ... | head -0`): SIGPIPE stops the
    # run like SIGTERM; the result files are written.
    many_points
    ( "$cudalab" run --config "$configs/verify.toml" "${common[@]}" "$out/many.toml" 2>"$out/stderr"
      echo $? >"$out/rc" ) | (exit 0)
    rc=$(cat "$out/rc")
    echo "exit code $rc"
    expect_rc 130
    results_ok "$out/run/results.json" 1
    ;;
  redteam_f07_terminal_hangup)
    # The terminal of an in-process run is closed: SIGHUP, and every later write to the terminal fails.
    # The run must still stop as interrupted and write its results.
    export FAKECUDA_MS=0.000001  # each launch takes no time: the timing loop would run for hours
    rc=$(python3 - "$cudalab" "$out" "$plugins" "$fixtures/testlab.toml" <<'EOF'
import os, pty, sys, time
cudalab, out, plugins, lab = sys.argv[1:5]
pid, master = pty.fork()
if pid == 0:
    os.execv(cudalab, [cudalab, "run", "--plugin-path", plugins, "--out", out + "/run", lab])
deadline = time.time() + 60
while time.time() < deadline and not os.path.exists(out + "/run/results.jsonl"):
    time.sleep(0.05)
time.sleep(1)
os.close(master)  # the terminal hangs up: SIGHUP to cudalab, its session leader
for _ in range(200):
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        print(os.waitstatus_to_exitcode(status))
        sys.exit(0)
    time.sleep(0.05)
os.kill(pid, 9)
os.waitpid(pid, 0)
print("timeout")
EOF
    )
    echo "exit code $rc"
    expect_rc 130
    results_ok "$out/run/results.json" 0
    ;;
  redteam_f10_stop_between_samples)
    # In this process, a timing loop that would run for hours (launches that take no time, 10 s of GPU
    # time per sample): SIGTERM must stop the run at the next sample, not at the next variant.
    export FAKECUDA_MS=0.000001
    start run --set measure.min_time_ms=10000 "${common[@]}" "$fixtures/testlab.toml"
    wait_for 60 test -s "$out/run/context.json" || fail "the run did not start"
    sleep 0.5
    kill -TERM "$pid"
    finish 5
    expect_rc 130
    expect_stderr "interrupted"
    results_ok "$out/run/results.json" 0
    ;;
  redteam_f10_second_signal)
    # In this process, a kernel that never ends: the first SIGTERM cannot be acted on; a second one ends
    # the process at once.
    export FAKECUDA_HANG_SYNC=1
    start run --config "$configs/verify.toml" "${common[@]}" "$fixtures/testlab.toml"
    wait_for 60 test -s "$out/run/context.json" || fail "the run did not start"
    sleep 0.5
    kill -TERM "$pid"
    sleep 0.5
    if alive "$pid"; then ok "still stuck after the first SIGTERM"; else fail "ended after the first SIGTERM"; fi
    kill -TERM "$pid"
    finish 5
    expect_rc 143
    ;;
  redteam_f11_probe_hangs)
    # The GPU probe never returns (a stuck driver): --timeout must kill it too.
    export FAKECUDA_HANG_PROBE=1
    start run --isolate --timeout 2 "${common[@]}" "$fixtures/testlab.toml"
    wait_for 10 has_probe "$pid" && started+=("$(probe_of "$pid")")
    finish 15
    expect_rc 5
    expect_stderr "the process probing the GPU timed out after 2 s without a result \\(killed by the watchdog\\)"
    no_child_left "${started[@]}"
    ;;
  redteam_f14_output_flood)
    # A unit child writes 5 MB without a newline, then hangs: the parent keeps only the end of each line,
    # so neither its memory, nor its stderr, nor the error text in the results grows with the flood.
    export FAKECUDA_SPEW=5000000 FAKECUDA_HANG_SYNC=1
    start run --isolate --timeout 3 --config "$configs/verify.toml" "${common[@]}" "$fixtures/testlab.toml"
    finish 60
    expect_rc 8
    expect_count "the hang is recorded with the child's last output, cut" 1 \
      '"status":"error","error":"the child process running this lab file timed out .*its last output: x+ \[[^]]*cut'
    for f in "$out/stderr" "$out/run/results.json" "$out/run/results.jsonl" "$out/run/report.md"; do
      size=$(stat -c %s "$f")
      if [ "$size" -lt 100000 ]; then ok "$f: $size bytes"; else fail "$f: $size bytes"; fi
    done
    ;;
  redteam_f16_allocation_failure)
    # A non-sticky CUDA error (an allocation that fails at one point) is that point's error only: the
    # points after it must run as if it never happened.
    export FAKECUDA_MALLOC_FAIL_ABOVE=$((8 << 20))
    printf '[lab]\nplugin = "testlab"\n[sweep]\nn = ["1Mi", "4Mi", "512Ki", "2Mi"]\n' >"$out/cascade.toml"
    start run --config "$configs/verify.toml" "${common[@]}" "$out/cascade.toml"
    finish 60
    expect_rc 7
    expect_count "the point too big for the device fails" 3 '"point_index":1,.*"status":"error",.*cudaErrorMemoryAllocation'
    expect_count "every other point passes" 9 '"status":"ok"'
    ;;
  redteam_f18_isolate_two_files)
    # --isolate with --set and --variant and two lab files (one named like an option): the children
    # must get exactly what the parent was given.
    cp "$fixtures/testlab.toml" "$out/a.toml"
    cp "$fixtures/testlab.toml" "$out/-dash.toml"
    cd "$out" || exit 1
    start run --isolate --config "$configs/verify.toml" --set=n=64Ki --variant=copy "${common[@]}" -- a.toml -dash.toml
    finish 60
    expect_rc 0
    expect_count "a.toml: the baseline and copy at n = 64Ki" 2 '^\{"lab_file":"a.toml",.*"status":"ok",.*"bytes_read":262144,'
    expect_count "-dash.toml: the same" 2 '^\{"lab_file":"-dash.toml",.*"status":"ok",.*"bytes_read":262144,'
    ;;
  redteam_f21_files_edited_during_run)
    # The lab file and the profile are overwritten while an isolated run goes on: every child must run
    # what the parent read and validated when it started.
    cp "$fixtures/testlab.toml" "$out/lab.toml"
    cp "$configs/verify.toml" "$out/profile.toml"
    start run --isolate=variant --config "$out/profile.toml" "${common[@]}" "$out/lab.toml"
    wait_for 60 has_child "$pid" || fail "no child started"
    echo 'this is not TOML' >"$out/lab.toml"
    printf '[measure]\ntiming = "broken"\n' >"$out/profile.toml"
    finish 60
    expect_rc 0
    expect_count "every variant at every point, as first read" 6 '"status":"ok"'
    ;;
  redteam_f22_binary_replaced)
    # The executable is deleted and replaced by another program while an isolated run goes on (a
    # rebuild): every child must still be the program the run started with.
    binary_copy=$(dirname "$cudalab")/cudalab-redteam-f22-$$
    cp "$cudalab" "$binary_copy"
    cudalab=$binary_copy
    start run --isolate=variant --config "$configs/verify.toml" "${common[@]}" "$fixtures/testlab.toml"
    wait_for 60 has_child "$pid" || fail "no child started"
    rm -f "$binary_copy"
    printf '#!/bin/sh\necho "a different program"\nexit 9\n' >"$binary_copy"
    chmod +x "$binary_copy"
    finish 60
    expect_rc 0
    expect_count "every variant at every point" 6 '"status":"ok"'
    ;;
  redteam_f24_no_descriptor_leak)
    # A unit child must hold none of the parent's files: not its results files, not anything else.
    export FAKECUDA_HANG_SYNC=1
    start run --isolate --timeout 60 --config "$configs/verify.toml" "${common[@]}" "$fixtures/testlab.toml"
    wait_for_unit
    leaked=""
    for fd in "/proc/$child/fd/"*; do
      target=$(readlink "$fd")
      case $target in "$out/run/"*) leaked="$leaked ${fd##*/} -> $target" ;; esac
    done
    if [ -z "$leaked" ]; then ok "no results file open in the child"; else fail "the child holds:$leaked"; fi
    kill -TERM "$pid"
    finish 10
    expect_rc 130
    ;;
  redteam_f33_probe_killed)
    # The GPU probe dies of a signal: say what happened in a sentence, and do not claim a CUDA call failed.
    export FAKECUDA_HANG_PROBE=1
    start run --isolate "${common[@]}" "$fixtures/testlab.toml"
    wait_for 60 has_probe "$pid" || fail "no probe started"
    kill -ABRT "$(probe_of "$pid")"
    finish 10
    expect_rc 1
    expect_stderr "the process probing the GPU was killed by signal SIGABRT \\(Aborted\\)"
    ;;
  *)
    echo "unknown scenario $scenario" >&2
    exit 2
    ;;
esac
exit $status
