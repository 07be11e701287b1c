#!/usr/bin/env bash
# lint.tidy: clang-tidy, as .clang-tidy says (every warning an error), over the C++ files of core/, plugins/ and
# tests/ that a change touched: those that differ from the merge base with main (origin/main, else main; on main
# itself, from the last commit's parent: what a merge brought) and those that include a header that does. With
# CUDALAB_TIDY_ALL=1, or where no base is found (a shallow clone), every file. The files and their flags come
# from the build's compile_commands.json; the .cu files are not checked, as their commands are nvcc's, which
# clang-tidy cannot take (the CUDA device code is checked by nvcc -Werror and compute-sanitizer instead).
# Skips (77) without clang-tidy or a compilation database. Runs CUDALAB_TIDY_JOBS (2) clang-tidy at a time.
#
# usage: check_tidy.sh SOURCE_DIR BUILD_DIR [FILE...]   (FILEs given: those, whatever changed, under the
#        source folder's .clang-tidy wherever they are)
set -uo pipefail
source_dir=$(cd "$1" && pwd) || exit 2
build_dir=$(cd "$2" && pwd) || exit 2
shift 2
cd "$source_dir" || exit 2
command -v clang-tidy >/dev/null 2>&1 || { echo "skipped: clang-tidy is not installed"; exit 77; }
[ -f "$build_dir/compile_commands.json" ] || { echo "skipped: no $build_dir/compile_commands.json"; exit 77; }

# Every C++ file of the three folders that the build compiles, relative to the source folder (CMake writes each
# entry's "file" as an absolute path).
mapfile -t compiled < <(grep -o '"file": "[^"]*"' "$build_dir/compile_commands.json" | sed 's/^"file": "//; s/"$//' |
                        sed -n "s#^$source_dir/\(\(core\|plugins\|tests\)/.*\.cpp\)\$#\1#p" | sort -u)

if [ $# -gt 0 ]; then
  files=("$@")
elif [ "${CUDALAB_TIDY_ALL:-0}" = 1 ]; then
  files=("${compiled[@]}")
else
  base=""
  for ref in origin/main main; do
    git rev-parse -q --verify "$ref^{commit}" >/dev/null || continue
    base=$(git merge-base HEAD "$ref") || base=""
    break
  done
  if [ -n "$base" ] && [ "$base" = "$(git rev-parse HEAD)" ]; then
    base=$(git rev-parse -q --verify HEAD~1) || base=""
  fi
  if [ -z "$base" ]; then
    echo "lint.tidy: no base commit to compare with: every file"
    files=("${compiled[@]}")
  else
    # Changed since the base: committed, staged, in the work tree, and new files git does not ignore.
    mapfile -t changed < <({ git diff --name-only "$base" -- core plugins tests
                             git ls-files --others --exclude-standard -- core plugins tests; } | sort -u)
    declare -A wanted=()
    for f in "${changed[@]}"; do
      case $f in
        *.cpp) wanted[$f]=1 ;;
        *.hpp | *.h | *.cuh)
          for c in "${compiled[@]}"; do grep -q "$(basename "$f")" "$c" && wanted[$c]=1; done ;;
      esac
    done
    files=()
    for c in "${compiled[@]}"; do [ -n "${wanted[$c]+x}" ] && files+=("$c"); done
    echo "lint.tidy: ${#files[@]} of ${#compiled[@]} files changed since $(git rev-parse --short "$base") or include a header that did"
  fi
fi
if [ ${#files[@]} -eq 0 ]; then
  echo "lint.tidy: nothing to check"
  exit 0
fi

# clang's count of the warnings it generated (nearly all in system headers, and dropped) is noise: findings only.
printf '%s\0' "${files[@]}" |
  xargs -0 -n 1 -P "${CUDALAB_TIDY_JOBS:-2}" clang-tidy -p "$build_dir" --config-file="$source_dir/.clang-tidy" --quiet 2>&1 |
  grep -v ' warnings\? generated\.$'
status=${PIPESTATUS[1]}
if [ $status -ne 0 ]; then
  echo "lint.tidy: clang-tidy found problems above (.clang-tidy says which checks run; a disabled one gives its reason)"
  exit 1
fi
echo "lint.tidy: ${#files[@]} files clean"
