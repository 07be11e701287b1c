#!/usr/bin/env bash
# `cudalab plot RESULTS`: the plots of a run drawn again from its results folder (the H100 runs kept in
# tests/fixtures/plots), as `run` draws them; --png through rsvg-convert, and a clear refusal without it,
# from `plot` and from `run` (before any GPU work).
# usage: plot.sh CUDALAB FIXTURES WORK_DIR
set -u
cudalab=$1 fixtures=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"

# Into --out: one SVG per lab file, the paths on stdout.
out=$("$cudalab" plot "$fixtures/plots/h100-reduction_sizes" --out "$work/sizes") || fail "plot exited $?"
[ "$out" = "$work/sizes/reduction_sizes.svg" ] || fail "plot printed '$out'"
grep -q 'n (log scale)' "$work/sizes/reduction_sizes.svg" || fail "n, a factor range, is not on a log axis"
grep -q '<g id="pct_of_baseline">' "$work/sizes/reduction_sizes.svg" || fail "no % of baseline panel"

# By default beside the results: a copy of the run's folder gets plots/.
cp -r "$fixtures/plots/h100-reduction" "$work/run"
"$cudalab" plot "$work/run" >/dev/null || fail "plot of a folder exited $?"
grep -q '<g id="bars">' "$work/run/plots/reduction.svg" || fail "a single-point lab got no bar chart"

# Not results: exit 3, saying why.
msg=$("$cudalab" plot "$fixtures" 2>&1); code=$?
[ $code = 3 ] || fail "plot of a folder without results exited $code: $msg"
grep -q "not a results folder" <<<"$msg" || fail "no reason given: $msg"

# --png without rsvg-convert on PATH: exit 2 and the package to install, from plot and from run.
nopath=$work/empty-path && mkdir -p "$nopath"
msg=$(PATH=$nopath "$cudalab" plot "$work/run" --png 2>&1); code=$?
[ $code = 2 ] || fail "plot --png without rsvg-convert exited $code: $msg"
grep -q "librsvg2-bin" <<<"$msg" || fail "plot --png does not name the package: $msg"
msg=$(PATH=$nopath "$cudalab" run --png "$fixtures/cli/testlab.toml" --out "$work/never" 2>&1); code=$?
[ $code = 2 ] || fail "run --png without rsvg-convert exited $code: $msg"
[ ! -e "$work/never" ] || fail "run --png without rsvg-convert made a results folder"

# With rsvg-convert: a PNG beside each SVG, twice its size.
if ! command -v rsvg-convert >/dev/null; then echo "skipped the PNG half: no rsvg-convert"; exit 0; fi
out=$("$cudalab" plot "$work/run" --png) || fail "plot --png exited $?"
grep -q "reduction.png$" <<<"$out" || fail "plot --png did not list the PNG: $out"
png=$work/run/plots/reduction.png
[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$png is not a PNG"
svg_width=$(grep -o '^<svg [^>]*' "$work/run/plots/reduction.svg" | grep -o ' width="[0-9.]*"' | grep -o '[0-9.]*')
png_width=$(od -An -tu1 -j16 -N4 "$png" | awk '{ print $1 * 16777216 + $2 * 65536 + $3 * 256 + $4 }')
[ "$png_width" = "$((${svg_width%.*} * 2))" ] || fail "the PNG is $png_width px wide, the SVG $svg_width"
ls -a "$work/run/plots" | grep -q '\.tmp-' && fail "a temporary file was left in plots/"
echo "ok"
