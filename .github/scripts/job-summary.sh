#!/usr/bin/env bash
# Workflow step: the job summary from the reports folder ($1, default reports): release.md when a
# release check ran, then the conformance summary.md, then each k6-*.md; written to
# $GITHUB_STEP_SUMMARY (stdout when unset). GitHub refuses a step summary over 1 MiB, and then shows
# none: the parts are added while they fit in SUMMARY_LIMIT bytes (default 1,000,000, under
# 1 MiB), the one that does not fit is cut at a line end, and the rest are named, all with a
# pointer to the reports artifact, which holds every file whole.
set -uo pipefail
dir="${1:-reports}"
out="${GITHUB_STEP_SUMMARY:-/dev/stdout}"
limit="${SUMMARY_LIMIT:-1000000}"
note_room=400 # bytes kept for the closing note

parts=()
for f in "$dir/release.md" "$dir/summary.md" "$dir"/k6-*.md; do
  [ -f "$f" ] && parts+=("$f")
done

if [ "${#parts[@]}" -eq 0 ]; then
  echo "No report in $dir: the run ended before writing one (see the log)." >> "$out"
  exit 0
fi

used=0
left_out=()
for f in "${parts[@]}"; do
  size=$(wc -c < "$f")
  room=$((limit - note_room - used))
  if [ "${#left_out[@]}" -gt 0 ] || [ "$room" -le 0 ]; then
    left_out+=("$(basename "$f")")
    continue
  fi
  if [ "$size" -le "$room" ]; then
    cat "$f" >> "$out"
    printf '\n' >> "$out"
    used=$((used + size + 1))
  else
    # Cut at the last whole line that fits.
    head -c "$room" "$f" | sed '$d' >> "$out"
    printf '\n\n_%s is cut here: the step summary is limited to 1 MiB; the whole file is in the reports artifact._\n' "$(basename "$f")" >> "$out"
    used=$limit
    left_out+=("(rest of $(basename "$f"))")
  fi
done
if [ "${#left_out[@]}" -gt 0 ]; then
  printf '\n_Not shown here (1 MiB limit), in the reports artifact: %s_\n' "${left_out[*]}" >> "$out"
fi
exit 0
