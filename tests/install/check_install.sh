#!/usr/bin/env bash
# Installs cudalab from a build tree into a fresh prefix, moves the prefix (it must be relocatable),
# then does what a lab author does: `cudalab new histo`, builds it out of tree against the install
# with no architecture or build type given, runs its own tests, and loads it with the installed cudalab.
# The plugin must target the CUDA architectures cudalab was built for, optimised (Release).
# usage: check_install.sh BUILD_DIR WORK_DIR CUDA_ARCHITECTURES CUOBJDUMP
set -euo pipefail
build=$1 work=$2 archs=$3 cuobjdump=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
mv "$work/prefix" "$work/moved"
p=$work/moved
for f in bin/cudalab lib/cudalab/plugins include/cudalab/lab.hpp include/cudalab/abi_hash.hpp include/cudalab/testing.hpp \
         include/cudalab/param_table.hpp include/cudalab/trace_tiles.hpp share/cudalab/testing/gpu_test_main.cpp \
         lib/libcudalab_testing.so lib/cmake/cudalab/cudalabConfig.cmake share/cudalab/labs share/cudalab/configs share/cudalab/docs \
         share/bash-completion/completions/cudalab; do
  [ -e "$p/$f" ] || fail "$f missing from the install tree"
done
ls "$p"/lib/libbenchmark.so* >/dev/null || fail "libbenchmark not carried in lib/"

# What `cudalab new` writes builds against the install and passes its own tests at once.
"$p/bin/cudalab" new histo --out "$work/histo" || fail "cudalab new failed"
cmake -S "$work/histo" -B "$work/histo/build" -DCMAKE_PREFIX_PATH="$p" > "$work/configure.log" || { cat "$work/configure.log"; fail "configure"; }
cmake --build "$work/histo/build" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "build"; }
ctest --test-dir "$work/histo/build" --output-on-failure || fail "the new lab's own tests"
# Its tests are GoogleTest programs registered as cudalab's own labs' are.
tests=$(ctest --test-dir "$work/histo/build" -N)
for t in plugin.histo_trace gpu.histo; do grep -q " $t\$" <<<"$tests" || fail "the new lab has no test $t: $tests"; done

# It targets cudalab's architectures, optimised.
grep -q "^CMAKE_BUILD_TYPE:STRING=Release" "$work/histo/build/CMakeCache.txt" || fail "the plugin was not built Release"
flags=$work/histo/build/CMakeFiles/cudalab_histo.dir/flags.make
for a in ${archs//;/ }; do
  a=${a%-real}; a=${a%-virtual}
  grep -q "arch=compute_${a}" "$flags" || fail "cudalab_histo.so is not compiled for sm_${a} (cudalab was built for ${archs})"
  # Where the toolkit has cuobjdump, look at the code in the library itself.
  if [ -x "$cuobjdump" ]; then
    "$cuobjdump" --list-elf "$work/histo/build/cudalab_histo.so" | grep -q "sm_${a}" ||
      fail "cudalab_histo.so holds no sm_${a} code (cudalab was built for ${archs})"
  fi
done
grep -q -- "CXX_FLAGS = .*-O[23]" "$flags" || fail "the plugin's host code is not compiled at -O2 or more"

# The installed cudalab loads it, validates and explains its lab file without a GPU.
out=$("$p/bin/cudalab" describe histo --plugin-path "$work/histo/build" 2>&1) || fail "describe: $out"
grep -q "scale_vec4" <<<"$out" || fail "the installed cudalab did not load the new plugin: $out"
"$p/bin/cudalab" validate "$work/histo/histo.toml" --plugin-path "$work/histo/build" || fail "validate"
# One point in full (requests, sectors, efficiency), then the sweep over unroll as one table.
"$p/bin/cudalab" explain "$work/histo/histo.toml" --set unroll=1 --plugin-path "$work/histo/build" |
  grep -E "scale_vec4 .* 16.00 +100%" || fail "explain does not predict 16 sectors per vector request"
"$p/bin/cudalab" explain "$work/histo/histo.toml" --plugin-path "$work/histo/build" |
  grep -E "scale_vec4 +ld sectors +16.00 +16.00 +16.00" || fail "explain's summary of the sweep over unroll"
bash -n "$p/share/bash-completion/completions/cudalab" || fail "the installed bash completion is not bash"
# Captured first: `list | grep -q` would end the pipe at the first match, and list, which prints each
# plugin once its child has loaded it, would then die of SIGPIPE on the next line.
listed=$("$p/bin/cudalab" list 2>&1) || fail "list: $listed"
grep -q "alignment" <<<"$listed" || fail "installed plugins not listed: $listed"
echo "ok: install tree relocatable; cudalab new histo built out of tree (Release, ${archs}), passed its tests, loaded"
