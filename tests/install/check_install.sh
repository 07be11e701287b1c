#!/usr/bin/env bash
# Installs cudalab from a build tree into a fresh prefix, moves the prefix (it must be relocatable),
# builds the example plugin out of tree against it, and checks the installed executable loads it.
# usage: check_install.sh BUILD_DIR SOURCE_DIR WORK_DIR
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
mv "$work/prefix" "$work/moved"
p=$work/moved
for f in bin/cudalab lib/cudalab/plugins include/cudalab/lab.hpp lib/cmake/cudalab/cudalabConfig.cmake \
         share/cudalab/labs share/cudalab/configs share/cudalab/docs; do
  [ -e "$p/$f" ] || { echo "FAIL: $f missing from the install tree"; exit 1; }
done
ls "$p"/lib/libbenchmark.so* >/dev/null || { echo "FAIL: libbenchmark not carried in lib/"; exit 1; }
cmake -S "$src/tests/install/example_plugin" -B "$work/example" -DCMAKE_PREFIX_PATH="$p" \
      -DCMAKE_CUDA_ARCHITECTURES=90 >/dev/null
cmake --build "$work/example" >/dev/null
out=$("$p/bin/cudalab" describe example --plugin-path "$work/example" 2>&1)
echo "$out"
grep -q "Out-of-tree example" <<<"$out" || { echo "FAIL: the installed cudalab did not load the example plugin"; exit 1; }
"$p/bin/cudalab" list | tee /dev/stderr | grep -q "alignment" || { echo "FAIL: installed plugins not listed"; exit 1; }
echo "ok: install tree relocatable, out-of-tree plugin built and loaded"
