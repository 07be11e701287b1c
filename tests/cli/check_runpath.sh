#!/usr/bin/env bash
# Fails when a binary under the given folders (an executable or a shared library: cudalab, the plugins,
# the test programs, the fake CUDA runtime, the install test's tree) has an RPATH or RUNPATH entry that
# the loader would take relative to the current directory: an empty entry (a leading or trailing ':',
# or '::'), or one that is neither absolute nor $ORIGIN-based. Such an entry lets a library in whatever
# folder cudalab is run from replace one it links (red-team finding F1).
# usage: check_runpath.sh FOLDER... (folders that do not exist are skipped)
set -u
command -v readelf >/dev/null || { echo "skipped: no readelf"; exit 77; }

# Why the run path `value` would search the current directory, or nothing when it would not.
relative_entry() {
  case "$1" in
    "" | :* | *: | *::*) echo "an empty entry (the current directory)"; return ;;
  esac
  local entries e
  IFS=: read -r -a entries <<<"$1"
  for e in "${entries[@]}"; do
    case "$e" in
      /* | '$ORIGIN' | '$ORIGIN/'* | '${ORIGIN}' | '${ORIGIN}/'*) ;;
      *) echo "the relative entry '$e' (taken from the current directory)"; return ;;
    esac
  done
}

bad=0 checked=0
while IFS= read -r -d '' f; do
  # readelf fails on what is not ELF (scripts), and prints no run path for ELF files without one.
  while IFS=$'\t' read -r kind value; do
    checked=$((checked + 1))
    why=$(relative_entry "$value")
    if [ -n "$why" ]; then
      echo "FAIL: $f: $kind [$value] has $why"
      bad=$((bad + 1))
    fi
  done < <(readelf -d "$f" 2>/dev/null | sed -n 's/.*(\(RPATH\|RUNPATH\)).*path: \[\(.*\)\]$/\1\t\2/p')
done < <(for d in "$@"; do
  [ -d "$d" ] && find "$d" -type f \( -perm -u+x -o -name '*.so' -o -name '*.so.*' \) -print0
done)
if [ "$bad" -gt 0 ]; then
  echo "FAIL: $bad file(s) with a run path relative to the current directory" >&2
  exit 1
fi
echo "ok: $checked RPATH/RUNPATH entries checked, none relative to the current directory"
