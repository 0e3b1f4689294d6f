#!/usr/bin/env bash
# Workflow step, after a failed night: opens one issue labelled nightly-conformance, or, when one
# is open, adds a comment to it, so a failure that persists is one thread, not one issue a night.
# Needs gh with GH_TOKEN, GITHUB_REPOSITORY; RUN_URL names the run. $1: the reports folder.
set -euo pipefail
dir="${1:-reports}"
label=nightly-conformance
run_url="${RUN_URL:-${GITHUB_SERVER_URL:-https://github.com}/${GITHUB_REPOSITORY:-?}/actions/runs/${GITHUB_RUN_ID:-?}}"
body=$(mktemp)
trap 'rm -f "$body"' EXIT
{
  echo "The nightly conformance run of $(date -u +%Y-%m-%d) failed: $run_url"
  echo
  if [ -f "$dir/summary.md" ]; then
    # An issue body holds at most 65,536 characters: the summary's head, the rest in the artifact.
    head -c 60000 "$dir/summary.md" | sed '$d'
    echo
    echo "_The whole reports are the run's conformance-reports artifact._"
  else
    echo "No summary.md: the run ended before any result (see the run's log)."
  fi
} > "$body"
open=$(gh issue list --repo "$GITHUB_REPOSITORY" --label "$label" --state open --json number --jq '.[0].number // empty')
if [ -n "$open" ]; then
  gh issue comment "$open" --repo "$GITHUB_REPOSITORY" --body-file "$body"
  echo "nightly-issue: commented on #$open"
else
  gh label create "$label" --repo "$GITHUB_REPOSITORY" --color B60205 \
    --description 'The nightly conformance run failed' --force >/dev/null 2>&1 || true
  gh issue create --repo "$GITHUB_REPOSITORY" --label "$label" \
    --title 'Nightly conformance run failed' --body-file "$body"
  echo "nightly-issue: opened an issue"
fi
