#!/bin/sh
# One runner of a split release run (load/k8s/split-job.yaml): runner i of RUNNERS (i from the
# Indexed Job's JOB_COMPLETION_INDEX, 0-based) runs its execution segment and leaves its share on
# the shared volume in the layout `npm run merge:load` reads:
#   $SHARED/runner-<i+1>/runner.json   { name, segment, exitCode }: exitCode stays null until k6 ends,
#                                      so a pod killed midway reads as "did not end"
#   $SHARED/runner-<i+1>/options.json  `k6 inspect`: the thresholds the merge judges
#   $SHARED/runner-<i+1>/samples.jsonl k6 --out json
#   $SHARED/runner-<i+1>/ready         its k6 is paused and ready: the pods' start barrier
# CLIENT_ID_<i+1>/CLIENT_SECRET_<i+1>, when set, replace CLIENT_ID/CLIENT_SECRET: each runner its own
# client, so a per-client limit does not see the sum. Never `set -x`: the environment holds secrets.
# Always exits 0 once its share is recorded: the verdict is the merge's, and a retried pod would
# run its share twice.
set -eu
i=${JOB_COMPLETION_INDEX:?JOB_COMPLETION_INDEX not set (run as an Indexed Job)}
n=${RUNNERS:?RUNNERS not set}
script=${SCRIPT:-/scripts/release.tar}
k6=${K6:-k6}
name="runner-$((i + 1))"
dir="${SHARED:-/shared}/$name"

cut() { if [ "$1" -eq 0 ]; then echo 0; elif [ "$1" -eq "$n" ]; then echo 1; else echo "$1/$n"; fi; }
segment="$(cut "$i"):$(cut $((i + 1)))"
sequence=0
j=1
while [ "$j" -le "$n" ]; do sequence="$sequence,$(cut "$j")"; j=$((j + 1)); done

eval "own_id=\${CLIENT_ID_$((i + 1)):-}"
eval "own_secret=\${CLIENT_SECRET_$((i + 1)):-}"
if [ -n "$own_id" ] && [ -n "$own_secret" ]; then
  CLIENT_ID=$own_id
  CLIENT_SECRET=$own_secret
  export CLIENT_ID CLIENT_SECRET
fi

meta() {
  printf '{"name":"%s","segment":"%s","sequence":"%s","exitCode":%s,"credential":"%s"}\n' \
    "$name" "$segment" "$sequence" "$1" "${CLIENT_ID:-}" >"$dir/runner.json.tmp"
  mv "$dir/runner.json.tmp" "$dir/runner.json"
}

rm -rf "$dir"
mkdir -p "$dir"
meta null
"$k6" inspect --include-system-env-vars "$script" >"$dir/options.json"
export K6_REPORT_DIR="$dir"
# Started together as `--runners N` starts them on one machine: k6 paused (setup() waits too), a
# "ready" mark on the shared volume, and every pod resumes its own k6 once all N are marked (or
# after BARRIER_SECONDS: the merge then names the late ones). The REST API stays on loopback.
api=127.0.0.1:${K6_API_PORT:-6565}
"$k6" run --quiet --paused "--address=$api" "--execution-segment=$segment" \
  "--execution-segment-sequence=$sequence" "--out=json=$dir/samples.jsonl" "$script" >"$dir/k6.log" 2>&1 &
pid=$!
until "$k6" status "--address=$api" >/dev/null 2>&1; do
  kill -0 "$pid" 2>/dev/null || break
  sleep 1
done
: >"$dir/ready"
waited=0
while [ "$(ls "${SHARED:-/shared}"/runner-*/ready 2>/dev/null | wc -l)" -lt "$n" ] &&
  [ "$waited" -lt "${BARRIER_SECONDS:-600}" ]; do
  sleep 1
  waited=$((waited + 1))
done
"$k6" resume "--address=$api" >/dev/null 2>&1 || true
code=0
wait "$pid" || code=$?
meta "$code"
echo "$name ($segment): k6 exited $code; its share is in $dir"
