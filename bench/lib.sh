# Sourced by the HTTP benchmarks (bench/send.sh, bench/reads.sh, bench/scale.sh) once BENCH_RUN is set:
# the kit (set up), a build, the service's settings for a benchmark, and the helpers they share. What a
# benchmark starts goes into `pids` (process groups): stopped on exit.
# shellcheck shell=bash
# shellcheck source=bench/kit.sh
source bench/kit.sh
# shellcheck source=/dev/null
source "$kit/peers.sh"
bash "$kit/setup.sh" >/dev/null
# shellcheck source=bench/build.sh
source bench/build.sh
pids=()
cleanup() { for p in "${pids[@]}"; do kill -- "-$p" 2>/dev/null || kill "$p" 2>/dev/null || true; done; }
trap cleanup EXIT
# send_email needs the master key (every message carries an unsubscribe link signed under it); every
# request accepted: no window, no spacing, no rate limit, a plan without a daily maximum in reach.
MAILBOX_MASTER_KEY=$(node -e "process.stdout.write(require('crypto').randomBytes(32).toString('base64'))")
export MAILBOX_MASTER_KEY SEND_WINDOW=always SPACING_SECONDS=0 LOG_LEVEL=warn \
  RATE_LIMIT_BURST=1000000000 RATE_LIMIT_PER_SECOND=1000000000 \
  PLANS='{"bench":{"inbox_cap":5,"daily_max":100000000}}'

field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.2f", a/b}'; }
# Commands a Redis processed so far (those run inside scripts included).
commands() { redis-cli -p "$1" info stats | awk -F: '/^total_commands_processed/ {print $2}' | tr -d '\r'; }
# CPU seconds used so far: a process (user + system, from /proc), a Redis (INFO cpu).
process_cpu() { awk -v hz="$(getconf CLK_TCK)" '{printf "%.3f", ($14 + $15) / hz}' "/proc/$1/stat"; }
redis_cpu() { redis-cli -p "$1" info cpu | awk -F: '/^used_cpu_(sys|user):/ {s += $2} END {printf "%.3f", s}'; }
per_request() { awk -v a="$1" -v b="$2" -v n="$3" 'BEGIN {printf "%.0f", (b - a) * 1e6 / n}'; }

# healthy PORT: waits (20 s at most) until the service on PORT answers /healthz.
healthy() {
  for _ in $(seq 100); do
    node -e "fetch('http://127.0.0.1:$1/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" && return 0
    sleep 0.2
  done
  echo "no answer on /healthz at port $1" >&2
  return 1
}

# open_loop URL BODY AUTH RATE SECONDS: wrk pinned on core 0 posting BODY at a fixed RATE (bench/rate.lua,
# open loop); one RESULT line. Fails on any 4xx/5xx or socket error, or when nothing was answered.
open_loop() {
  local line
  line=$(BENCH_BODY=$2 BENCH_AUTH=$3 BENCH_RATE=$4 \
    taskset -c 0 wrk -t1 -c50 -d"$5s" --timeout 5s -s bench/rate.lua "$1" | grep '^RESULT ')
  echo "$line"
  [[ $line == *" bad_status=0 sock_errors=0"* && $line != *" requests=0 "* ]] || { echo "open loop on $1 failed: $line" >&2; return 1; }
}
