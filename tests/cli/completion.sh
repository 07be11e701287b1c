#!/usr/bin/env bash
# `cudalab completion bash`: bash accepts the script; it names every command that --help lists; and,
# sourced, it completes commands, options, choices (after a space or '='), lab files and plugin names
# as bash would ask it to (COMP_WORDS split at '=' as bash splits them).
# usage: completion.sh CUDALAB LABS_DIR TEST_PLUGIN_DIR
set -u
cudalab=$1 labs=$2 tp=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
script=$("$cudalab" completion bash) || fail "cudalab completion bash failed"
bash -n <<<"$script" || fail "bash -n refuses the script"

# Every command --help lists (and each command's own subcommands) is in the script.
commands=$("$cudalab" --help | sed -n '/^Subcommands:/,/^$/p' | awk '/^  [a-z]/ { print $1 }')
[ -n "$commands" ] || fail "no commands found in --help"
for c in $commands; do
  grep -q "^    \"$c\")" <<<"$script" || fail "the script has no entry for the command $c"
  grep -q "subcommands=\".*\\b$c\\b" <<<"$script" || fail "the script does not offer the command $c"
done
for c in "assignment init" "assignment starter"; do
  grep -q "^    \"$c\")" <<<"$script" || fail "the script has no entry for $c"
done

# What the script offers for a command line whose last word is being completed.
offers() {
  bash -c 'source /dev/stdin <<<"$1"; shift
           COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=()
           _cudalab; printf "%s\n" "${COMPREPLY[@]}"' _ "$script" "$@" 2>/dev/null | LC_ALL=C sort | tr '\n' ' '
}
expect() {  # expect "WANTED WORDS" words...: the offers are exactly these
  local want=$1 got
  shift
  got=$(offers "$@")
  [ "$got" = "$want " ] || fail "completing '$*': got '$got', expected '$want'"
}
expect_has() {  # expect_has WORD words...: WORD is among the offers
  local want=$1 got
  shift
  got=$(offers "$@")
  [[ " $got" == *" $want "* ]] || fail "completing '$*': '$want' is not among '$got'"
}
expect "run" cudalab ru
expect_has explain cudalab ""
expect_has completion cudalab ""
expect "--wide" cudalab run --wi
expect "--device --devices" cudalab run --devic
expect "csv json md table" cudalab run --format ""
expect "csv json md table" cudalab run --format = ""
expect "variant" cudalab run --isolate = v
expect "json table" cudalab explain labs/x.toml --format ""
expect "init starter" cudalab assignment ""
expect "--lab" cudalab assignment init --la
expect "bash" cudalab completion ""
# cudalab's own children's entries (__child, __plugin-probe) are not commands for people: not offered.
expect "" cudalab __
# Lab files (and folders to go into) for the files of run, also after an option's value.
cd "$labs/.." || fail "no folder $labs/.."
expect "labs/alignment.toml labs/alignment_cache.toml labs/alignment_stride.toml labs/alignment_tuning.toml" \
  cudalab run --set n=64Ki labs/alig
expect_has "labs/assignments" cudalab validate labs/assi
expect "labs" cudalab run --out lab
# Plugin names for describe: those beside the executable, and those of --plugin-path.
expect_has alignment "$cudalab" describe al
expect "testlab" "$cudalab" describe --plugin-path "$tp" testl
echo "ok: the bash completion"
