#!/usr/bin/env bash
# send_email over HTTP under wrk, beside the bare uWS echo of the kit (bench/kit.sh) and the project's own
# floor (bench/floor-send.mjs: the same HTTP and Redis plumbing with scripts that decide nothing), in
# the same run.
# Two placements of the project's Redis: on core 1 with the project (the kit's rule: every server on
# core 1, load on core 0), then on core 0 beside the load generator (Redis on a core of its own, as
# in production where it is another machine). Prints markdown tables; `npm run bench` runs it.
# Loopback only; everything it starts, it stops.
#   bash bench/send.sh           # ~6 min
#   bash bench/send.sh --smoke   # @bench-smoke: one placement, one round of 2 s, 3 s open loop; no timing judged
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == --smoke ]]; then
  placements=(1) rounds=1 secs=2 steady_secs=3
  export BENCH_WARMUP_SECS=1
else
  placements=(1 0) rounds=3 secs=10 steady_secs=30
fi
export BENCH_RUN=$(mktemp -d -t mailbox-bench-send.XXXXXX)
# shellcheck source=bench/lib.sh
source bench/lib.sh

peer_start uws-echo >/dev/null; pids+=("$PEER_PID"); echo_port=$PEER_PORT
# A process given one core runs as docs/operations.md ("Running") says: a larger young generation, and
# V8's garbage collection on the event loop's thread (its helper threads would share that core).
one_core_flags=(--max-semi-space-size=64 --single-threaded-gc)
# steady SECONDS: open-loop send_email at 2,000/s (bench/lib.sh's open_loop).
steady() { open_loop "http://127.0.0.1:$hport/v1/send_email" "$BENCH_RUN/body.json" "Bearer $key" 2000 "$1"; }

# measure REDIS_CORE: starts a fresh Redis and `serve --role http` (core 1), seeds, loads, stops them.
measure() {
  local redis_core=$1 rport hport fport key rows=() fixed
  rport=$(free_port); hport=$(free_port); fport=$(free_port)
  setsid taskset -c "$redis_core" redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no >"$BENCH_RUN/redis-$redis_core.log" 2>&1 &
  local rpid=$!
  export REDIS_URL=redis://127.0.0.1:$rport PORT=$hport
  sleep 0.3
  setsid taskset -c 1 node "${one_core_flags[@]}" bin/mailbox.js serve --role http >"$BENCH_RUN/project-$redis_core.log" 2>&1 &
  local npid=$!
  PORT=$fport setsid taskset -c 1 node "${one_core_flags[@]}" bench/floor-send.mjs >"$BENCH_RUN/floor-$redis_core.log" 2>&1 &
  local fpid=$!
  pids+=("$rpid" "$npid" "$fpid")
  healthy "$hport"
  key=$(node bench/seed.mjs "$BENCH_RUN/body.json")
  # Latency first, on the warm service at a steady 2,000/s: 5 s at that rate untimed (1 s in smoke),
  # then the timed run, open loop from C (bench/rate.lua) so the load generator adds no pauses of its own.
  steady "$((steady_secs > 5 ? 5 : 1))" >/dev/null
  local commands0 node0 redis0 commands1 node1 redis1 sent
  commands0=$(commands "$rport"); node0=$(process_cpu "$npid"); redis0=$(redis_cpu "$rport")
  fixed=$(steady "$steady_secs")
  commands1=$(commands "$rport"); node1=$(process_cpu "$npid"); redis1=$(redis_cpu "$rport")
  sent=$(field requests "$fixed")
  for round in $(seq "$rounds"); do
    local p f e
    p=$(BENCH_AUTH="Bearer $key" bash "$kit/http-load.sh" "http://127.0.0.1:$hport/v1/send_email" "$BENCH_RUN/body.json" 50 "$secs")
    f=$(BENCH_AUTH="Bearer $key" bash "$kit/http-load.sh" "http://127.0.0.1:$fport/v1/send_email" "$BENCH_RUN/body.json" 50 "$secs")
    e=$(BENCH_AUTH="Bearer x" bash "$kit/http-load.sh" "http://127.0.0.1:$echo_port/" "$BENCH_RUN/body.json" 50 "$secs")
    rows+=("$round|$p|$f|$e")
  done
  kill -- "-$npid" "-$fpid" "-$rpid" 2>/dev/null || true

  echo "Redis on core $redis_core, the project on core 1, wrk on core 0:"
  echo
  echo "| round | send_email req/s | p50 ms | p99 ms | floor req/s | vs floor | uws-echo req/s | vs echo |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  for row in "${rows[@]}"; do
    IFS='|' read -r round p f e <<<"$row"
    local pr fr er
    pr=$(field req_s "$p"); fr=$(field req_s "$f"); er=$(field req_s "$e")
    echo "| $round | $pr | $(field p50_ms "$p") | $(field p99_ms "$p") | $fr | $(ratio "$pr" "$fr") | $er | $(ratio "$pr" "$er") |"
  done
  echo
  echo "Open loop at 2,000 send_email/s for $steady_secs s (after a few seconds at that rate): $(field p50_ms "$fixed") ms p50, $(field p99_ms "$fixed") ms p99, $(field p999_ms "$fixed") ms p99.9, $(field max_ms "$fixed") ms max, $(field req_s "$fixed") req/s, $(field bad_status "$fixed") errors"
  echo "Redis commands per send_email (total_commands_processed over the open-loop run / requests): $(awk -v a="$commands0" -v b="$commands1" -v n="$sent" 'BEGIN {printf "%.2f", (b-a)/n}')"
  echo "CPU per send_email over the open-loop run: Node $(per_request "$node0" "$node1" "$sent") µs, Redis $(per_request "$redis0" "$redis1" "$sent") µs (user + system; /proc and INFO cpu)"
  echo
}

for core in "${placements[@]}"; do measure "$core"; done
