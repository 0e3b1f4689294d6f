#!/usr/bin/env bash
# Workflow step: the one command of the release page, `npm run release-check` (its arguments passed
# on). Its exit code goes to the step's outputs (exit-code) and the step itself succeeds, so the
# steps after it (JUnit, summary, upload) run and release-gate.sh alone decides the release.
set -uo pipefail
cd "$(dirname "$0")/../.."
npm run --silent release-check -- "$@"
code=$?
echo "release-check: exit code $code"
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "exit-code=$code" >> "$GITHUB_OUTPUT"; fi
exit 0
