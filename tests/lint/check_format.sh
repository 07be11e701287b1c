#!/usr/bin/env bash
# The C++ and CUDA sources follow .clang-format: lists the files that do not (apply it with
# `clang-format -i FILE`). Skips (77) without clang-format. The lab template (core/templates/lab) holds
# @LAB@ placeholders that are not C++ yet, and is not checked.
# usage: check_format.sh SOURCE_DIR
set -uo pipefail
cd "$1" || exit 2
command -v clang-format >/dev/null 2>&1 || { echo "skipped: clang-format is not installed"; exit 77; }
mapfile -t files < <(find core plugins tests -path core/templates -prune -o \
                       \( -name '*.cpp' -o -name '*.hpp' -o -name '*.cu' -o -name '*.cuh' \) -print | sort)
bad=()
for f in "${files[@]}"; do clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f"); done
if [ ${#bad[@]} -gt 0 ]; then
  printf 'not formatted as .clang-format says (clang-format -i FILE):\n'; printf '  %s\n' "${bad[@]}"; exit 1
fi
echo "ok: ${#files[@]} files formatted as .clang-format says"
