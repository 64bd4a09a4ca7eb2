#!/usr/bin/env bash
# The delivery benchmark (bench/delivery.mjs): the worker relaying DKIM-signed mail to postfix's
# smtp-sink, beside nodemailer's pooled transport alone and postfix relaying, in the same rounds.
#   bash bench/delivery.sh           # 3 rounds of 20,000 messages, then 20 s of latency load (~3 min)
#   bash bench/delivery.sh --smoke   # @bench-smoke: one round of 200 messages; no timing judged
# Needs redis-server, postfix (smtp-sink, smtp-source, a scratch `postfix -c` instance), openssl, taskset.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in redis-server smtp-sink smtp-source postfix openssl taskset; do
  command -v "$tool" >/dev/null || { echo "delivery.sh: $tool is needed (apt-get install redis-server postfix openssl util-linux)" >&2; exit 2; }
done
# shellcheck source=bench/build.sh
source bench/build.sh
exec node bench/delivery.mjs "$@"
