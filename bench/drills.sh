#!/usr/bin/env bash
# The kill drills (issue 14; figures in docs/operations.md, "Kill drills"): SIGKILL of a front end, of
# Redis (append-only, appendfsync everysec then always) and of the delivery worker, each under a load
# of send_email retried with idempotency keys; counts acknowledged vs stored vs delivered (bench/drills.mjs).
#   bash bench/drills.sh           # 4 drills x 200 messages, about 4 min on a shared 2-core machine
#   bash bench/drills.sh --smoke   # @bench-smoke: 4 drills x 24 messages, for CI
# Loopback only; everything it starts, it stops (the driver's process group and the scratch directory).
# Exit 1 when a drill lost an acknowledged message, did not drain, or delivered a copy outside the
# documented window.
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
setsid node bench/drills.mjs "$@" &
driver=$!
# On an interruption the driver stops what it started (SIGTERM) before the scratch directory goes;
# a failed run keeps it, with each process's log.
cleanup() {
  local code=$?
  kill -- "-$driver" 2>/dev/null && wait "$driver" 2>/dev/null
  if [ "$code" = 0 ]; then rm -rf "$DRILLS_RUN"; else echo "logs kept in $DRILLS_RUN" >&2; fi
}
trap cleanup EXIT
wait "$driver"
