# The timing inputs shared by scripts/ab-wall and scripts/profile-misses (sourced, bash; run
# from the repository root). Made once under $AB_DIR (default /dev/shm/ab-wall, a tmpfs: no
# disk in the timing): ../shared/datasets/intl_cldr.txt ×29 (intl29.txt, 202 MB),
# real_files_and_shortener.txt ×40 (real40.txt, 219 MB), and the URIs that the CLI BIN writes
# for intl_cldr, ×20 (intluri20.txt, 227 MB).

ab=${AB_DIR:-/dev/shm/ab-wall}

# repeat SRC TIMES DEST: DEST holds SRC TIMES times (kept when it exists).
repeat() {
  [ -s "$3" ] && return
  for _ in $(seq "$2"); do cat "$1"; done > "$3.tmp"
  mv "$3.tmp" "$3"
}

# ab_inputs BIN: makes the three inputs under $ab.
ab_inputs() {
  local s=../shared/datasets
  mkdir -p "$ab"
  repeat "$s/intl_cldr.txt" 29 "$ab/intl29.txt"
  repeat "$s/real_files_and_shortener.txt" 40 "$ab/real40.txt"
  if [ ! -s "$ab/intluri20.txt" ]; then
    "$1" -q --in "$s/intl_cldr.txt" --out "$ab/intl.uri.txt" || true
    repeat "$ab/intl.uri.txt" 20 "$ab/intluri20.txt"
  fi
}
