#!/usr/bin/env bash
# Scaling out the front end: send_email accepted per second by one `serve --role http` process, then by
# two sharing one Redis (front ends keep no state: any one answers any request), in the same run. One
# process: wrk with 50 connections. Two: two wrk at once, 25 connections each, one per process; the
# figure is their sum. Nothing is pinned (two front ends, Redis and the load on two cores): the point
# measured is how much a second process adds on this machine, not a per-core rate. Loopback only;
# everything it starts, it stops.
#   bash bench/scale.sh           # 3 rounds of 10 s each way (~2 min)
#   bash bench/scale.sh --smoke   # @bench-smoke: one round of 2 s; no timing judged
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --smoke ]]; then
  rounds=1 secs=2
  export BENCH_WARMUP_SECS=1
else
  rounds=3 secs=10
fi
export BENCH_RUN=$(mktemp -d -t mailbox-bench-scale.XXXXXX)
# shellcheck source=bench/lib.sh
source bench/lib.sh
export BENCH_LOAD_CPUS=

rport=$(free_port)
setsid redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no >"$BENCH_RUN/redis.log" 2>&1 &
pids+=($!)
export REDIS_URL=redis://127.0.0.1:$rport
sleep 0.3
ports=()
for i in 1 2; do
  ports+=("$(free_port)")
  PORT=${ports[-1]} setsid node --max-semi-space-size=64 bin/mailbox.js serve --role http >"$BENCH_RUN/project-$i.log" 2>&1 &
  pids+=($!)
  healthy "${ports[-1]}"
done
key=$(node bench/seed.mjs "$BENCH_RUN/body.json")
load() { BENCH_AUTH="Bearer $key" bash "$kit/http-load.sh" "http://127.0.0.1:$1/v1/send_email" "$BENCH_RUN/body.json" "$2" "$secs"; }

echo "| round | one process req/s | p99 ms | two processes req/s (sum) | p99 ms (worse of the two) | two vs one |"
echo "|---|---:|---:|---:|---:|---:|"
for round in $(seq "$rounds"); do
  one=$(load "${ports[0]}" 50)
  load "${ports[0]}" 25 >"$BENCH_RUN/a" &
  a=$!
  load "${ports[1]}" 25 >"$BENCH_RUN/b"
  wait "$a"
  ra=$(field req_s "$(cat "$BENCH_RUN/a")"); rb=$(field req_s "$(cat "$BENCH_RUN/b")")
  pa=$(field p99_ms "$(cat "$BENCH_RUN/a")"); pb=$(field p99_ms "$(cat "$BENCH_RUN/b")")
  echo "| $round | $(field req_s "$one") | $(field p99_ms "$one") | $((ra + rb)) | $(awk -v a="$pa" -v b="$pb" 'BEGIN {print (a > b) ? a : b}') | $(ratio "$((ra + rb))" "$(field req_s "$one")") |"
done
