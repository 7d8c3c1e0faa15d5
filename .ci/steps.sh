# Step timing for .ci/run and scripts/ci-python (sourced, bash): `step NAME` starts a step and
# ends the one before; `end_step` ends the current one. Each step prints its wall time and the
# CPU time (user + sys) of the processes it ran, which a loaded machine inflates far less than
# the wall time; `steps_summary` prints the table of both, with the load average.

# CPU seconds of the finished child processes so far, from bash's `times` (run in this shell:
# in a pipeline's or $(...)'s subshell it would count only the subshell's own children).
# Sets CPU; call it directly, never as $(cpu).
_steps_times=$(mktemp)
CPU=0
cpu() {
  times > "$_steps_times"
  CPU=$(tail -n 1 "$_steps_times" | awk '{ t = 0; for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); t += a[1] * 60 + a[2] } printf "%d", t + 0.5 }')
}

_steps_t0=$SECONDS
_steps_cur=""
_steps_t=$SECONDS
_steps_c=0
_steps_summary=""

end_step() {
  if [ -n "$_steps_cur" ]; then
    cpu
    local s=$((SECONDS - _steps_t)) c=$((CPU - _steps_c))
    printf '=== %ss wall, %ss CPU: %s\n' "$s" "$c" "$_steps_cur"
    _steps_summary+=$(printf '%6s %6s  %s' "$s" "$c" "$_steps_cur")$'\n'
  fi
  _steps_cur=""
}

step() {
  end_step
  _steps_cur="$*"
  _steps_t=$SECONDS
  cpu
  _steps_c=$CPU
  printf '\n=== %s\n' "$_steps_cur"
}

loadavg() { cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo '?'; }

# steps_summary TITLE [EXIT_STATUS]: ends the current step (marked FAILED for a non-zero
# status) and prints the table.
steps_summary() {
  if [ "${2:-0}" -ne 0 ] && [ -n "$_steps_cur" ]; then
    _steps_cur="$_steps_cur (FAILED, exit $2)"
  fi
  end_step
  cpu
  printf '\n=== %s: time per step (seconds)\n  wall    CPU\n%s%6s %6s  total; load average now: %s\n' \
    "$1" "$_steps_summary" "$((SECONDS - _steps_t0))" "$CPU" "$(loadavg)"
  rm -f "$_steps_times"
}
