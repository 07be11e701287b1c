#!/usr/bin/env bash
# lint.tidy_catches_finding: the clang-tidy check fails on a planted finding (a use after std::move) and passes
# on the same file without it; both files are written outside the tree and checked under its .clang-tidy.
set -uo pipefail
check=$1 src=$2 build=$3
command -v clang-tidy >/dev/null 2>&1 || { echo "skipped: clang-tidy is not installed"; exit 77; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat >"$work/planted.cpp" <<'CPP'
#include <string>
#include <utility>
std::string joined(std::string a) {
  std::string b = std::move(a);
  return a + b;
}
CPP
sed 's/return a + b;/return b + b;/' "$work/planted.cpp" >"$work/clean.cpp"
out=$("$check" "$src" "$build" "$work/planted.cpp" 2>&1)
got=$?
if [[ $got -ne 1 ]] || ! grep -q 'bugprone-use-after-move' <<<"$out"; then
  echo "expected exit 1 and bugprone-use-after-move on the planted file, got exit $got:"; echo "$out"; exit 1
fi
out=$("$check" "$src" "$build" "$work/clean.cpp" 2>&1)
got=$?
if [[ $got -ne 0 ]]; then
  echo "expected exit 0 on the clean file, got exit $got:"; echo "$out"; exit 1
fi
echo "lint.tidy_catches_finding: the check catches the planted use after move"
