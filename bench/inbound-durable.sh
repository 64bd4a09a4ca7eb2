#!/usr/bin/env bash
# Inbound SMTP beside a durable peer: Postfix's own smtpd, cleanup and queue on this disk (a message is
# in its queue file, fsynced, before the 250, as the service's raw source is), delivered to its discard
# transport, in the same interleaved rounds as the kit's Haraka (discards on receipt) and the project
# (`serve --role smtp` and the kit's Redis, as bench/inbound.sh runs it); the kit's SMTP loads
# (postfix smtp-source, 1 KB, keep-alive 20 sessions and new connections 50), servers pinned like the
# kit's. Each run after a Postfix one waits for its queue to be empty (its queue manager's work is its
# own, not the next target's). Prints each run, then the medians and the project's ratios to both peers.
# Postfix's master needs root: elsewhere the harness says so and stops (exit 0).
#   bash bench/inbound-durable.sh            # 3 rounds (BENCH_REPEAT), ~3 min
#   bash bench/inbound-durable.sh --smoke    # @bench-smoke: one round of a few hundred messages
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/smoke-loads.sh
[[ ${1:-} == --smoke ]] && source bench/smoke-loads.sh
if ((EUID != 0)); then
  echo "inbound-durable: the Postfix peer's master runs as root; run this as root (CI does)."
  exit 0
fi
# shellcheck source=bench/kit.sh
source bench/kit.sh
# shellcheck source=bench/build.sh
source bench/build.sh
bash "$kit/setup.sh" >/dev/null
export BENCH_PEERS=${BENCH_PEERS:-$HOME/.cache/mailbox-bench-peers}
export BENCH_RUN=${BENCH_RUN:-$(mktemp -d -t mailbox-bench-durable.XXXXXX)}
# shellcheck source=/dev/null
source "$kit/peers.sh"
repeat=${BENCH_REPEAT:-3} ka=${BENCH_KA_MSGS:-20000} nc=${BENCH_NC_MSGS:-5000}
pids=() postfix_dir=$BENCH_RUN/postfix
stop_all() {
  postfix -c "$postfix_dir/etc" stop >/dev/null 2>&1 || true
  peer_stop "${pids[@]}"
}
trap stop_all EXIT

# Postfix: a private instance (its own configuration, queue and data directories) on a free port.
postfix_port=$(free_port)
mkdir -p "$postfix_dir/etc" "$postfix_dir/queue" "$postfix_dir/data"
chmod a+x "$BENCH_RUN" # Postfix's own user reaches its directories through it
cat >"$postfix_dir/etc/main.cf" <<CONF
compatibility_level = 3.6
queue_directory = $postfix_dir/queue
data_directory = $postfix_dir/data
meta_directory = /etc/postfix
maillog_file = $postfix_dir/maillog
maillog_file_prefixes = $postfix_dir
inet_interfaces = 127.0.0.1
inet_protocols = ipv4
myhostname = postfix-peer.bench.test
mydestination =
relay_domains = bench.test
alias_maps =
alias_database =
local_recipient_maps =
mynetworks = 127.0.0.0/8
smtpd_recipient_restrictions = permit_mynetworks, reject
default_transport = discard
relay_transport = discard
# No pause before reading a message when the queue is busy: the peer is measured at its pace.
in_flow_delay = 0
CONF
# Debian's services, smtpd on the free port, none chrooted (the instance's queue is its own).
awk -v port="$postfix_port" '
  /^smtp +inet/ { $1 = port }
  /^[a-z]/ && NF >= 8 && $5 == "y" { $5 = "n" }
  { print }' /etc/postfix/master.cf >"$postfix_dir/etc/master.cf"
chown postfix "$postfix_dir/data"
# `check` makes the queue directories with their owners (its warnings are of the shared meta_directory).
postfix -c "$postfix_dir/etc" check >/dev/null 2>&1 || true
chown -R postfix "$postfix_dir/data"
server_pin
"${PIN[@]}" postfix -c "$postfix_dir/etc" start >/dev/null
wait_port "$postfix_port" $$ || { cat "$postfix_dir/maillog" >&2; exit 1; }

peer_start haraka >&2
pids+=("$PEER_PID") haraka_port=$PEER_PORT
peer_start redis >&2
pids+=("$PEER_PID")
export REDIS_URL=redis://127.0.0.1:$PEER_PORT COMMON_DOMAIN=bench.test MAILBOX_DATA_DIR=$BENCH_RUN/var LOG_LEVEL=warn \
  PLANS='{"bench":{"inbox_cap":5,"daily_max":1000}}' SMTP_HOST=127.0.0.1 SMTP_MAX_CONNECTIONS_PER_ADDRESS=1000
export SMTP_PORT
SMTP_PORT=$(free_port)
setsid "${PIN[@]}" node bin/mailbox.js serve --role smtp >"$BENCH_RUN/project.log" 2>&1 &
pids+=("-$!")
wait_port "$SMTP_PORT" $! || { cat "$BENCH_RUN/project.log" >&2; exit 1; }
node bench/seed-inbound.mjs agent >/dev/null

declare -A port=([postfix]=$postfix_port [haraka]=$haraka_port [project]=$SMTP_PORT)
declare -A rcpt=([postfix]=sink@bench.test [haraka]=sink@bench.test [project]=agent@bench.test)
# Postfix answers 250 once a message is in its queue; its queue manager then hands it to the discard
# transport and removes the file, on the same core and disk, for seconds after the load ends. The next
# run starts once the queue is empty, so that work is not counted against the target measured next.
postfix_settled() {
  local waited=0
  while (($(find "$postfix_dir/queue/"{maildrop,incoming,active,deferred} -type f 2>/dev/null | wc -l) > 0)); do
    ((waited++ < 600)) || { echo "inbound-durable: Postfix's queue did not empty in 60 s" >&2; return 1; }
    sleep 0.1
  done
}
targets=(postfix haraka project)
raw=$BENCH_RUN/raw.tsv
: >"$raw"
for round in $(seq "$repeat"); do
  ((round % 2)) && order=("${targets[@]}") || order=(project haraka postfix)
  for target in "${order[@]}"; do
    for mode in keepalive newconn; do
      if [[ $mode == keepalive ]]; then sessions=20 msgs=$ka; else sessions=50 msgs=$nc; fi
      line=$(BENCH_RCPT=${rcpt[$target]} BENCH_SMTP_MODES=$mode bash "$kit/smtp-load.sh" 127.0.0.1 "${port[$target]}" \
        "$sessions" "$msgs" 1024)
      echo "  $round $target $line"
      printf '%s\t%s\t%s\n' "$target" "$mode" "$(grep -o 'msgs_s=[0-9]*' <<<"$line" | cut -d= -f2)" >>"$raw"
      [[ $target == postfix ]] && postfix_settled
    done
  done
done

median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
echo
echo "| target | load | median msg/s | runs |"
echo "|---|---|---:|---|"
declare -A med
for target in "${targets[@]}"; do
  for mode in keepalive newconn; do
    runs=$(awk -v t="$target" -v m="$mode" '$1 == t && $2 == m { print $3 }' "$raw")
    med[$target.$mode]=$(median <<<"$runs")
    echo "| $target | smtp-$mode | ${med[$target.$mode]} | $(tr '\n' ' ' <<<"$runs") |"
  done
done
echo
echo "| load | project / postfix (durable) | project / haraka (discards) |"
echo "|---|---:|---:|"
for mode in keepalive newconn; do
  awk -v p="${med[project.$mode]}" -v f="${med[postfix.$mode]}" -v h="${med[haraka.$mode]}" -v m="$mode" \
    'BEGIN { printf "| smtp-%s | %.2f | %.2f |\n", m, p / f, p / h }'
done
