#!/usr/bin/env bash
# Workflow step: the release's gate, from the release-check.tsv the release check wrote in the
# reports folder ($1, default reports). One annotation per step: passed (notice), not proved
# (warning: exit 3, the probe proved nothing, which is never "passed"), failed or did not run
# (error). Exit 1 when a step failed (a MUST check, a threshold: the release must not go), 2 when a
# step could not run or nothing was recorded, 3 when a step was not proved and FAIL_ON_NOT_PROVED is
# on (1/yes/true/on), else 0.
set -uo pipefail
dir="${1:-reports}"
tsv="$dir/release-check.tsv"
if [ ! -s "$tsv" ]; then
  echo "::error title=release check::no step recorded in $tsv: the release check ended before its first step (see the log)"
  exit 2
fi
failed=0 did_not_run=0 not_proved=0
while IFS=$'\t' read -r name code verdict command last; do
  [ -n "$name" ] || continue
  # Annotation text: one line, without the characters the workflow command syntax reserves.
  why=$(printf '%s' "${last:-}" | tr -d '\r' | sed 's/%/%25/g; s/::/: /g')
  case "$verdict" in
    passed) echo "::notice title=$name passed::$command: exit $code" ;;
    'not proved')
      not_proved=1
      echo "::warning title=$name not proved::$command proved nothing (exit 3): not proved is not passed; ${why:-see its report}" ;;
    failed)
      failed=1
      echo "::error title=$name failed::$command failed (exit $code): ${why:-see its report}" ;;
    *)
      did_not_run=1
      echo "::error title=$name $verdict::$command ended with exit $code: ${why:-see the log}" ;;
  esac
done < "$tsv"
if [ "$failed" = 1 ]; then echo "release gate: failed (a step failed)"; exit 1; fi
if [ "$did_not_run" = 1 ]; then echo "release gate: failed (a step could not run)"; exit 2; fi
if [ "$not_proved" = 1 ]; then
  case "$(printf '%s' "${FAIL_ON_NOT_PROVED:-off}" | tr '[:upper:]' '[:lower:]')" in
    1|yes|true|on) echo "release gate: failed (a step was not proved)"; exit 3 ;;
  esac
  echo "release gate: passed, with a step not proved (see the warning)"
  exit 0
fi
echo "release gate: passed"
exit 0
