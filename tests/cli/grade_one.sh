# Sourced by the grading tests, after `cudalab`, `work` and fail() are set and $work/init/secret.key is written:
# grade_one NAME ASSIGNMENT SUBMISSION grades one student into $work/NAME (console in $work/NAME.txt) in the
# sandbox, or with --no-sandbox where no sandbox can be made here (exit 13); any other failure fails the test.
grade_one() {
  local name=$1 assignment=$2 submission=$3 code=0
  "$cudalab" grade "$assignment" --submission "$submission" --student "$name" --secret "$work/init/secret.key" \
    --out "$work/$name" --no-color > "$work/$name.txt" 2>&1 || code=$?
  if [ "$code" = 13 ]; then
    code=0
    "$cudalab" grade "$assignment" --submission "$submission" --student "$name" --secret "$work/init/secret.key" \
      --out "$work/$name" --no-color --no-sandbox > "$work/$name.txt" 2>&1 || code=$?
  fi
  [ "$code" = 0 ] || fail "grade of $name exited $code: $(tail -5 "$work/$name.txt")"
}
