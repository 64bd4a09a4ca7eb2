#!/usr/bin/env bash
# The inbound floor under the kit's SMTP loads, beside Haraka and bare smtp-server in the same run:
# bench/floor-inbound.mjs reading each message through the project's parse (mailparser and mailauth)
# and storing nothing, then the same with mailparser alone. What the required libraries allow on the
# core the project and its Redis share (BENCHMARKS.md, "Receiving"). `npm run bench` runs it last.
#   bash bench/inbound-floor.sh --smoke   # @bench-smoke: one round of a few hundred messages a floor
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/smoke-loads.sh
[[ ${1:-} == --smoke ]] && source bench/smoke-loads.sh
# shellcheck source=bench/kit.sh
source bench/kit.sh
bash "$kit/setup.sh" >/dev/null
export PROJECT_LOADS=smtp PROJECT_RCPT=agent@bench.test BENCH_NC_MSGS=${BENCH_NC_MSGS:-1000} LOG_LEVEL=warn
export PROJECT_CMD="SMTP_PORT=\$BENCH_SMTP_PORT exec node $PWD/bench/floor-inbound.mjs"
for floor in full parser; do
  echo "### Floor: $([[ $floor == full ]] && echo 'mailparser and mailauth' || echo 'mailparser alone'), nothing stored"
  echo
  FLOOR=$floor BENCH_RUN=$(mktemp -d -t mailbox-bench-floor.XXXXXX) bash "$kit/baseline.sh" | sed -n '/^| target/,$p'
  echo
done
