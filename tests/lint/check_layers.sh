#!/usr/bin/env bash
# lint.layers: every #include in core/src reaches down the layer order of docs/architecture.md, never up
# or sideways into another unit of the same rank; core/src never includes core/cli; TOML++ is reached only
# through labfile/toml_reader.hpp; plugins include only the public API (cudalab/...) and their own files.
# Prints each include that breaks the order, exits 1.
#
# usage: check_layers.sh [SOURCE_DIR]   (default: the repository holding this script)
set -euo pipefail
root=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$root"

# The rank of each unit of core/src: a folder, or one of the few files directly in core/src. A unit may
# include its own files and those of units of a lower rank. Keep this table and the one in
# docs/architecture.md ("The layer order") the same.
declare -A rank=(
  [process]=1 [exit_codes]=1
  [labfile]=2 [model]=2
  [results]=3
  [slots]=4
  [plugin]=5
  [plan]=6 [compare]=6 [scaffold]=6
  [device]=7
  [runner]=8
  [isolation]=9 [testing]=9
  [ncu]=10
  [run_labs]=11 [explain]=11
  [assignment]=12
)

unit_of_path() {  # core/src/<unit>/... or core/src/<unit>.{hpp,cpp}
  local rel=${1#core/src/}
  if [[ $rel == */* ]]; then echo "${rel%%/*}"; else rel=${rel%.*}; echo "$rel"; fi
}
unit_of_include() {  # "dir/file.hpp" or "file.hpp" as written after #include
  local inc=$1
  if [[ $inc == */* ]]; then echo "${inc%%/*}"; else echo "${inc%.*}"; fi
}

bad=0
while IFS= read -r file; do
  from=$(unit_of_path "$file")
  if [[ -z ${rank[$from]+x} ]]; then
    echo "$file: the unit '$from' has no rank in tests/lint/check_layers.sh (and docs/architecture.md)"
    bad=1
    continue
  fi
  while IFS=: read -r line inc; do
    to=$(unit_of_include "$inc")
    [[ $to == "$from" || $to == cudalab || $to == cudalab_build_info ]] && continue
    if [[ -z ${rank[$to]+x} ]]; then
      echo "$file:$line: includes \"$inc\", which is not the public API nor a unit of core/src"
      bad=1
    elif (( rank[$to] > rank[$from] )); then
      echo "$file:$line: includes \"$inc\": $to (rank ${rank[$to]}) is above $from (rank ${rank[$from]})"
      bad=1
    elif (( rank[$to] == rank[$from] )); then
      echo "$file:$line: includes \"$inc\": $to and $from have the same rank (${rank[$from]}); one must be below the other"
      bad=1
    fi
  done < <(grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$file" | sed -E 's/^([0-9]+):[^"]*"([^"]+)".*/\1:\2/')
done < <(git ls-files -co --exclude-standard -- 'core/src/*.hpp' 'core/src/*.cpp' 'core/src/*.cu' 'core/src/*.cuh' | grep -v '^core/src/scaffold/embed')

# TOML++ only through labfile/: <toml++/...> is included by labfile/toml_reader.hpp alone (any folder that
# reads TOML includes that), and labfile/toml_tree.hpp, the folder's own internals, from labfile/ alone.
while IFS=: read -r file line _; do
  [[ $file == core/src/labfile/toml_reader.hpp ]] && continue
  echo "$file:$line: includes TOML++ itself; read TOML through labfile/toml_reader.hpp"
  bad=1
done < <(git grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*<toml\+\+/' -- core tests/unit tests/plugin tests/gpu tests/tools || true)
while IFS=: read -r file line _; do
  [[ $file == core/src/labfile/* ]] && continue
  echo "$file:$line: includes labfile/toml_tree.hpp, labfile/'s own; read TOML through labfile/toml_reader.hpp"
  bad=1
done < <(git grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"labfile/toml_tree.hpp"' -- core tests || true)

# Plugins see only the public API: nothing of core/src or core/cli.
while IFS=: read -r file line inc; do
  case $inc in
    cudalab/*) ;;
    */*) [[ -e "$(dirname "$file")/$inc" ]] || { echo "$file:$line: a plugin includes \"$inc\" (only cudalab/... and its own files)"; bad=1; } ;;
    *) ;;
  esac
done < <(git grep -nE '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' -- plugins | sed -E 's/^([^:]+):([0-9]+):[^"]*"([^"]+)".*/\1:\2:\3/')

if (( bad )); then
  echo "lint.layers: includes above run against the layer order (docs/architecture.md, \"The layer order\")"
  exit 1
fi
echo "lint.layers: every include in core/src reaches down the layer order"
