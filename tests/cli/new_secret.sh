# Sourced by the grading tests: new_secret FILE writes a staff secret as `assignment init` does - 32 random bytes
# as 64 hex digits and a newline, mode 0600 - without a lab file to init from (and without Python's tomllib,
# which the GPU machines' Python may lack).
new_secret() {
  (umask 077 && { od -An -tx1 -N32 /dev/urandom | tr -d ' \n'; echo; } > "$1")
}
