#!/usr/bin/env bash
# lint.layers_catches_climb: the layer check fails on an include that climbs, one that goes sideways, a
# unit it has no rank for, TOML++ included past labfile/toml_reader.hpp and labfile/toml_tree.hpp included
# outside labfile/, each planted in a copy of core/src, and passes on the copy as it is.
set -euo pipefail
check=$1 src=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
plant() {  # a fresh copy of the tree (core/src and plugins only), as a git repository the check lists
  rm -rf "$work/tree" && mkdir -p "$work/tree/core"
  cp -r "$src/core/src" "$work/tree/core/src" && cp -r "$src/plugins" "$work/tree/plugins"
  git -C "$work/tree" init -q && git -C "$work/tree" add -A
}
expect() {  # expect WANT WHAT: runs the check on the tree, which must exit WANT and print WHAT
  local want=$1 what=$2 got=0 out
  out=$("$check" "$work/tree" 2>&1) || got=$?
  if [[ $got -ne $want ]] || ! grep -qF -- "$what" <<<"$out"; then
    echo "expected exit $want and '$what', got exit $got:"; echo "$out"; exit 1
  fi
}
plant
expect 0 "every include in core/src reaches down"
plant
sed -i '0,/#include "/s//#include "assignment\/grade.hpp"\n#include "/' "$work/tree/core/src/process/deadline.cpp"
expect 1 'core/src/process/deadline.cpp:'
plant
sed -i '0,/#include "/s//#include "plan\/planning.hpp"\n#include "/' "$work/tree/core/src/compare/comparison.cpp"
expect 1 "have the same rank"
plant
mkdir -p "$work/tree/core/src/newstage" && echo '#include "process/deadline.hpp"' >"$work/tree/core/src/newstage/a.cpp"
git -C "$work/tree" add -A
expect 1 "the unit 'newstage' has no rank"
plant
sed -i '0,/#include "/s//#include <toml++\/toml.h>\n#include "/' "$work/tree/core/src/assignment/starter_kit.cpp"
expect 1 "includes TOML++ itself"
plant
sed -i '0,/#include "/s//#include "labfile\/toml_tree.hpp"\n#include "/' "$work/tree/core/src/assignment/starter_kit.cpp"
expect 1 "includes labfile/toml_tree.hpp"
plant
echo '#include "runner/runner.hpp"' >>"$work/tree/plugins/reduction/reduction_plugin.cpp"
expect 1 "a plugin includes"
echo "lint.layers_catches_climb: the check catches each planted include"
