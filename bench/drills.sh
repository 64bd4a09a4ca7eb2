#!/usr/bin/env bash
# The kill drills (figures in docs/operations.md, "Kill drills"): SIGKILL of a front end, of
# Redis (append-only, appendfsync everysec then always) and of the delivery worker, each under a load
# of send_email retried with idempotency keys; counts acknowledged vs stored vs delivered (bench/drills.mjs).
# Then the inbound drills (bench/inbound-drill.mjs): SIGKILL of the SMTP process, then of Redis, while
# mail arrives; every acknowledged message stored once with its raw source.
# Then the hostile content drill (bench/content-drill.mjs): hostile HTML mail and an inflating
# PDF sent and read under the same load; /healthz p99 and the process's peak memory.
# Then the cluster drill (bench/cluster-drill.mjs; docs/operations.md, "Redis Cluster failover"): a
# 6-node Redis Cluster under paced send_email from 12 spaces, kill -9 of the primary holding the most
# spaces, then of a replica, then the killed node restarted.
#   bash bench/drills.sh           # 4 + 2 drills x 200 messages, 5 hostile rounds, about 5 min on a shared 2-core machine
#   bash bench/drills.sh --smoke   # @bench-smoke: 4 + 2 drills x 24 messages, 1 hostile round, a 14 s cluster drill, for CI
#   bash bench/drills.sh cluster [--smoke]   # the cluster drill alone (about 2 min; 40 s in smoke mode)
# Loopback only; everything it starts, it stops (the driver's process group and the scratch directory).
# Exit 1 when a drill lost an acknowledged message, did not drain, or delivered a copy outside the
# documented window, or a hostile input was not answered as documented.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v redis-server >/dev/null || { echo "redis-server is needed (apt-get install redis-server)" >&2; exit 2; }
# shellcheck source=bench/build.sh
source bench/build.sh
export DRILLS_RUN=$(mktemp -d -t mailbox-drills.XXXXXX)
export SEND_WINDOW=always SPACING_SECONDS=0 LOG_LEVEL=warn \
  RATE_LIMIT_BURST=1000000000 RATE_LIMIT_PER_SECOND=1000000000 \
  PLANS='{"bench":{"inbox_cap":5,"daily_max":100000000}}' \
  MAILBOX_MASTER_KEY=$(node -e "console.log(require('crypto').randomBytes(32).toString('base64'))")
driver=
# On an interruption the driver stops what it started (SIGTERM) before the scratch directory goes;
# a failed run keeps it, with each process's log.
cleanup() {
  local code=$?
  [ -n "$driver" ] && kill -- "-$driver" 2>/dev/null && wait "$driver" 2>/dev/null
  if [ "$code" = 0 ]; then rm -rf "$DRILLS_RUN"; else echo "logs kept in $DRILLS_RUN" >&2; fi
}
trap cleanup EXIT
# Each driver in its own process group, so an interruption stops all it started.
scripts=(bench/drills.mjs bench/inbound-drill.mjs bench/content-drill.mjs bench/cluster-drill.mjs)
if [[ ${1:-} == cluster ]]; then
  scripts=(bench/cluster-drill.mjs)
  shift
fi
for script in "${scripts[@]}"; do
  setsid node "$script" "$@" &
  driver=$!
  wait "$driver"
  driver=
  echo
done
