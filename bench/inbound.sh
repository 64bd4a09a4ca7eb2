#!/usr/bin/env bash
# Inbound SMTP throughput: `mailbox serve --role smtp` under the kit's baseline.sh SMTP loads (bench/kit.sh)
# (postfix smtp-source, keep-alive and new connections), beside Haraka (discard) and bare smtp-server
# in the same run. A message counts once stored in its thread with its event: the 250 after DATA comes
# only after Redis wrote, and after the run the space's stream and threads must hold every message sent.
# Prints the kit's tables, then that count. `npm run bench:inbound` runs it (after a build).
# Kit knobs (BENCH_REPEAT, BENCH_KA_MSGS, BENCH_NC_MSGS, BENCH_WARMUP_MSGS, ...) pass through.
#   bash bench/inbound.sh --smoke   # @bench-smoke: one round of a few hundred messages; the stored count still judged
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/smoke-loads.sh
[[ ${1:-} == --smoke ]] && source bench/smoke-loads.sh

# Called back by baseline.sh once the project listens (PROJECT_PREPARE): seed the inbox, then sample
# the counts every second into $BENCH_RUN/counts until the project's Redis stops (at the run's end).
if [[ ${1:-} == prepare ]]; then
  export REDIS_URL=$BENCH_REDIS_URL
  read -r events threads thread_key seeded < <(node bench/seed-inbound.mjs "${PROJECT_RCPT%@*}")
  count() {  # "<events since the seed> <messages in threads> <threads>"
    local n t total=0 ids
    n=$(redis-cli -u "$REDIS_URL" xlen "$events") || return 1
    ids=$(redis-cli -u "$REDIS_URL" zrange "$threads" 0 -1) || return 1
    for t in $ids; do total=$((total + $(redis-cli -u "$REDIS_URL" hget "$thread_key$t" message_count))); done
    echo "$((n - seeded)) $total $(wc -w <<<"$ids")"
  }
  (while c=$(count 2>/dev/null); do echo "$c" >"$BENCH_RUN/counts"; sleep 1; done) >/dev/null 2>&1 &
  exit 0
fi

# shellcheck source=bench/kit.sh
source bench/kit.sh
bash "$kit/setup.sh" >/dev/null
export BENCH_RUN=${BENCH_RUN:-$(mktemp -d -t mailbox-bench-inbound.XXXXXX)}
export COMMON_DOMAIN=bench.test MAILBOX_DATA_DIR=$BENCH_RUN/var LOG_LEVEL=warn \
  PLANS='{"bench":{"inbox_cap":5,"daily_max":1000}}'
export PROJECT_RCPT=agent@bench.test PROJECT_LOADS=smtp PROJECT_PREPARE="bash $PWD/bench/inbound.sh prepare"
# The load comes from one address with the kit's 50 sessions, over the service's default of 20 open
# sessions per client address (an abuse limit, docs/operations.md): raised here, not measured.
export PROJECT_CMD='REDIS_URL=$BENCH_REDIS_URL SMTP_PORT=$BENCH_SMTP_PORT SMTP_HOST=127.0.0.1 SMTP_MAX_CONNECTIONS_PER_ADDRESS=1000 exec node bin/mailbox.js serve --role smtp'
bash "$kit/baseline.sh"

warm=${BENCH_WARMUP_MSGS:-1000}
sent=$((${BENCH_REPEAT:-3} * (2 * warm + ${BENCH_KA_MSGS:-20000} + ${BENCH_NC_MSGS:-5000})))
read -r events messages threads <"$BENCH_RUN/counts"
echo
echo "Sent to the project (warm-ups included): $sent; stored: $messages messages in $threads thread(s), $events events."
if ((events != sent || messages != sent)); then
  echo "MISMATCH: not every accepted message was stored with its event (log: $BENCH_RUN/project.log)" >&2
  exit 1
fi
