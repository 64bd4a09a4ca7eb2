#!/usr/bin/env bash
# The two HTTP engines (src/http/uws.ts) side by side: for HTTP_ENGINE=uws then node, a fresh Redis
# (core 0, beside wrk) and `serve --role http` plus the floor (bench/floor-send.mjs) on core 1, then
# closed-loop wrk runs of 50 connections (the kit's http-load.sh, bench/kit.sh; 2 s warm-up, SECONDS timed,
# default 5) on get_settings, send_email and the floor. Prints a markdown table. Loopback only;
# everything it starts, it stops. Usage: bash bench/engines.sh [SECONDS]
#   bash bench/engines.sh --smoke   # @bench-smoke: 1 s runs after 1 s of warm-up; fails on any 4xx/5xx
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/kit.sh
source bench/kit.sh
if [[ ${1:-} == --smoke ]]; then
  secs=1
  export BENCH_WARMUP_SECS=1
else
  secs=${1:-5}
fi
bash "$kit/setup.sh" >/dev/null
# shellcheck source=bench/build.sh
source bench/build.sh
export BENCH_RUN=$(mktemp -d -t mailbox-bench-engines.XXXXXX)
# shellcheck source=/dev/null
source "$kit/peers.sh"
pids=()
cleanup() { for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || true; done; }
trap cleanup EXIT
export SEND_WINDOW=always SPACING_SECONDS=0 LOG_LEVEL=warn \
  RATE_LIMIT_BURST=1000000000 RATE_LIMIT_PER_SECOND=1000000000 \
  PLANS='{"bench":{"inbox_cap":5,"daily_max":100000000}}'
# send_email signs each message's unsubscribe link under the master key: without one, encryption_unavailable.
MAILBOX_MASTER_KEY=$(node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64'))")
export MAILBOX_MASTER_KEY
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
echo '{}' >"$BENCH_RUN/empty.json"
# load URL BODY: one http-load line; a failed run says so on stderr, with the answers it got.
load() {
  BENCH_AUTH="Bearer $key" bash "$kit/http-load.sh" "$1" "$2" 50 "$secs" && return
  echo "$1 failed; it answers: $(curl -s -XPOST -H "authorization: Bearer $key" -H 'content-type: application/json' --data-binary "@$2" "$1" | head -c 300)" >&2
  return 1
}

echo "| engine | get_settings req/s | p99 ms | send_email req/s | p50 ms | p99 ms | floor req/s |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for engine in uws node; do
  rport=$(free_port); hport=$(free_port); fport=$(free_port)
  setsid taskset -c 0 redis-server --port "$rport" --bind 127.0.0.1 --save '' --appendonly no >"$BENCH_RUN/redis-$engine.log" 2>&1 &
  pids+=($!)
  export REDIS_URL=redis://127.0.0.1:$rport HTTP_ENGINE=$engine
  sleep 0.3
  PORT=$hport LOG_LEVEL=info setsid taskset -c 1 node --max-semi-space-size=64 bin/mailbox.js serve --role http >"$BENCH_RUN/project-$engine.log" 2>&1 &
  pids+=($!)
  PORT=$fport setsid taskset -c 1 node --max-semi-space-size=64 bench/floor-send.mjs >"$BENCH_RUN/floor-$engine.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do node -e "fetch('http://127.0.0.1:$hport/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" && break; sleep 0.2; done
  key=$(node bench/seed.mjs "$BENCH_RUN/body.json")
  s=$(load "http://127.0.0.1:$hport/v1/get_settings" "$BENCH_RUN/empty.json")
  p=$(load "http://127.0.0.1:$hport/v1/send_email" "$BENCH_RUN/body.json")
  f=$(load "http://127.0.0.1:$fport/v1/send_email" "$BENCH_RUN/body.json")
  echo "| $(grep -o '"engine":"[^"]*"' "$BENCH_RUN/project-$engine.log" | cut -d'"' -f4) | $(field req_s "$s") | $(field p99_ms "$s") | $(field req_s "$p") | $(field p50_ms "$p") | $(field p99_ms "$p") | $(field req_s "$f") |"
  cleanup
  pids=()
done
