#!/usr/bin/env bash
# Workflow step: exits with the exit code a run recorded in its results.json ($1: the reports
# folder), 2 when there is none or it cannot be read (the run ended before any result).
set -uo pipefail
dir="${1:-reports}"
code=$(node -e "try { const r = require(require('node:path').resolve(process.argv[1], 'results.json')); process.stdout.write(String(Number.isInteger(r.exitCode) ? r.exitCode : 2)) } catch { process.stdout.write('2') }" "$dir")
echo "the run's exit code: $code"
exit "$code"
