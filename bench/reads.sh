#!/usr/bin/env bash
# The reads agents poll, over HTTP: get_thread (a thread of 20 messages) and list_threads (a page of 50),
# each beside its floor (bench/floor-reads.mjs: the same Redis reads through the project's own HTTP and
# Redis plumbing, nothing else) in the same run. Per tool: open loop at 1,000 requests/s (bench/rate.lua),
# p50/p99/p99.9 and Node's CPU per request, for the project then the floor; then closed-loop rounds
# (wrk, 50 connections) alternating project and floor. Redis, the project and the floor on core 1 (the
# kit's rule), wrk on core 0. Prints markdown tables. Loopback only; everything it starts, it stops.
#   bash bench/reads.sh           # ~3 min
#   bash bench/reads.sh --smoke   # @bench-smoke: 3 s open loop, one round of 2 s; no timing judged
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --smoke ]]; then
  rounds=1 secs=2 steady_secs=3
  export BENCH_WARMUP_SECS=1
else
  rounds=3 secs=10 steady_secs=30
fi
export BENCH_RUN=$(mktemp -d -t mailbox-bench-reads.XXXXXX)
# shellcheck source=bench/lib.sh
source bench/lib.sh

rport=$(free_port); hport=$(free_port); fport=$(free_port)
setsid taskset -c 1 redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no >"$BENCH_RUN/redis.log" 2>&1 &
pids+=($!)
export REDIS_URL=redis://127.0.0.1:$rport
sleep 0.3
PORT=$hport setsid taskset -c 1 node --max-semi-space-size=64 bin/mailbox.js serve --role http >"$BENCH_RUN/project.log" 2>&1 &
npid=$!
pids+=("$npid")
healthy "$hport"
read -r key space thread < <(node bench/seed-reads.mjs "$BENCH_RUN")
PORT=$fport SPACE_ID=$space THREAD_ID=$thread setsid taskset -c 1 node --max-semi-space-size=64 bench/floor-reads.mjs >"$BENCH_RUN/floor.log" 2>&1 &
fpid=$!
pids+=("$fpid")
wait_port "$fport" "$fpid"

# The project answers what was seeded (a broken seed would make every figure meaningless).
answer() { curl -sf -XPOST -H "authorization: Bearer $key" -H 'content-type: application/json' --data-binary "@$BENCH_RUN/$1.json" "http://127.0.0.1:$hport/v1/$1"; }
[[ $(answer get_thread | node -e "process.stdin.on('data',d=>b+=d);let b='';process.stdin.on('end',()=>console.log(JSON.parse(b).messages.length))") == 20 ]] || { echo "get_thread does not answer 20 messages" >&2; exit 1; }
[[ $(answer list_threads | node -e "process.stdin.on('data',d=>b+=d);let b='';process.stdin.on('end',()=>console.log(JSON.parse(b).items.length))") == 50 ]] || { echo "list_threads does not answer 50 threads" >&2; exit 1; }

for tool in get_thread list_threads; do
  body=$BENCH_RUN/$tool.json
  open_loop "http://127.0.0.1:$hport/v1/$tool" "$body" "Bearer $key" 1000 1 >/dev/null
  node0=$(process_cpu "$npid")
  fixed=$(open_loop "http://127.0.0.1:$hport/v1/$tool" "$body" "Bearer $key" 1000 "$steady_secs")
  node1=$(process_cpu "$npid")
  open_loop "http://127.0.0.1:$fport/v1/$tool" "$body" "Bearer $key" 1000 1 >/dev/null
  floor_fixed=$(open_loop "http://127.0.0.1:$fport/v1/$tool" "$body" "Bearer $key" 1000 "$steady_secs")
  echo "### $tool"
  echo
  echo "Open loop at 1,000/s for $steady_secs s: the project $(field p50_ms "$fixed") ms p50, **$(field p99_ms "$fixed") ms p99**, $(field p999_ms "$fixed") ms p99.9," \
    "$(field req_s "$fixed") req/s, Node $(per_request "$node0" "$node1" "$(field requests "$fixed")") µs of CPU a request;" \
    "the floor $(field p50_ms "$floor_fixed") ms p50, $(field p99_ms "$floor_fixed") ms p99, $(field p999_ms "$floor_fixed") ms p99.9."
  echo
  echo "| round | $tool req/s | p99 ms | floor req/s | p99 ms | vs floor |"
  echo "|---|---:|---:|---:|---:|---:|"
  for round in $(seq "$rounds"); do
    p=$(BENCH_AUTH="Bearer $key" bash "$kit/http-load.sh" "http://127.0.0.1:$hport/v1/$tool" "$body" 50 "$secs")
    f=$(BENCH_AUTH="Bearer $key" bash "$kit/http-load.sh" "http://127.0.0.1:$fport/v1/$tool" "$body" 50 "$secs")
    echo "| $round | $(field req_s "$p") | $(field p99_ms "$p") | $(field req_s "$f") | $(field p99_ms "$f") | $(ratio "$(field req_s "$p")" "$(field req_s "$f")") |"
  done
  echo
done
