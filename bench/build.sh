# Sourced by each benchmark harness that runs on the built sources: an incremental build, unless the
# runner that started it built already (bench/smoke.sh and bench/all.sh export MAILBOX_BENCH_BUILT=1).
# A build with nothing to do still costs tsc about 6 s: six times in CI's smoke runs.
# shellcheck shell=bash
[[ -n ${MAILBOX_BENCH_BUILT:-} ]] || npm run build >/dev/null
