#!/usr/bin/env bash
# Not a test: makes the example HTML reports for docs/examples/ (run it on the GPU the examples are of):
#   report.html    cudalab run labs/reduction.toml labs/transpose.toml
#   class.html     a class batch of labs/assignments/reduction-sum over nine of its fixture submissions
#                  (tests/fixtures/submissions/reduction, each a student, and the reference solution)
#   feedback.html  the reference solution's student page from that batch, and feedback-failing.html
#                  of a submission tuned to the visible sizes
# and a screenshot of each at 1280 px wide (Chromium, headless), NAME.png. Everything the commands
# wrote stays in WORK; DOCS gets the pages and screenshots. On the fake CUDA runtime
# (LD_LIBRARY_PATH=build/tests/fakecuda CUDALAB_FAKE_GPU=1) every step runs too, with the fake's figures.
# usage: tests/tools/html_examples.sh CUDALAB WORK DOCS [CHROMIUM]   (from the source tree's root)
set -euo pipefail
cudalab=$1 work=$2 docs=$3 chromium=${4:-chromium}
mkdir -p "$work" "$docs"
"$cudalab" run labs/reduction.toml labs/transpose.toml --out "$work/run" --no-color || echo "run exited $?"
"$cudalab" assignment init --lab labs/reduction.toml --slot reduce_sum --out "$work/init" > /dev/null
mkdir -p "$work/class"
# A class of typical hand-ins: the broken, cheating and honest fixtures that finish in seconds (not the
# endless ones, which wait out their time limit in every test, nor the build bombs).
for f in cache_result compile_error compute_once host_copy lazy oob_write own_stream uses_cub visible_only; do
  cp "tests/fixtures/submissions/reduction/$f.cu" "$work/class/"
done
cp plugins/reduction/slots/reduce_sum.cu "$work/class/reference.cu"
"$cudalab" grade labs/assignments/reduction-sum/assignment.toml --submissions "$work/class" \
  --secret "$work/init/secret.key" --out "$work/grades" --no-color
cp "$work/run/report.html" "$docs/report.html"
cp "$work/grades/class.html" "$docs/class.html"
cp "$work/grades/reference/feedback.html" "$docs/feedback.html"
cp "$work/grades/visible_only/feedback.html" "$docs/feedback-failing.html"
for page in report class feedback feedback-failing; do
  height=$(case $page in report) echo 4000 ;; class) echo 2400 ;; *) echo 1600 ;; esac)
  args=(--headless --disable-gpu --hide-scrollbars --window-size=1280,"$height" --screenshot="$docs/$page.png")
  [ "$(id -u)" != 0 ] || args+=(--no-sandbox)
  "$chromium" "${args[@]}" "file://$(realpath "$docs/$page.html")" 2> /dev/null
done
ls -l "$docs"
