#!/usr/bin/env bash
# Every benchmark's smoke mode, one after the other, for CI (.ci/run): a harness that broke (a 4xx/5xx,
# nothing answered, a message not stored or not delivered) fails here, not weeks later in `npm run bench`.
# Convention (BENCHMARKS.md, "Smoke mode"): a bench/*.sh or bench/*.mjs whose text holds the marker
# @bench-smoke is run as `bash FILE --smoke` or `node FILE --smoke` from the repository root, after one
# build; it must take seconds, judge no timing, and exit non-zero when its harness breaks.
# Usage: bash bench/smoke.sh [NAME...]   (NAME: a file name under bench/, e.g. send.sh; default: all)
set -uo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=bench/kit.sh
source bench/kit.sh
if ! kit_present; then
  echo "smoke: the side-by-side kit is not at $BENCH_KIT: put it there or name it with BENCH_KIT" >&2
  exit 1
fi
npm run build >/dev/null || exit 1
export MAILBOX_BENCH_BUILT=1  # the harnesses need not build again (bench/build.sh)
mapfile -t marked < <(bash bench/marked.sh)
if (($#)); then marked=("${@/#/bench/}"); fi
# Each harness's output is kept: a failed one's is printed again at the end, where a CI log's tail shows it.
outputs=$(mktemp -d -t mailbox-smoke.XXXXXX)
trap 'rm -rf "$outputs"' EXIT
failed=()
for file in "${marked[@]}"; do
  case $file in *.mjs) runner=node ;; *) runner=bash ;; esac
  echo "== $runner $file --smoke"
  started=$SECONDS
  output="$outputs/$(basename "$file").log"
  # A harness that hangs is broken too: ten minutes is far beyond any smoke run.
  if timeout --foreground 600 "$runner" "$file" --smoke 2>&1 | tee "$output"; then
    echo "== $file: ok ($((SECONDS - started)) s)"
  else
    echo "== $file: FAILED ($((SECONDS - started)) s)" >&2
    failed+=("$file")
  fi
done
if ((${#failed[@]})); then
  for file in "${failed[@]}"; do
    echo "== what $file printed last:" >&2
    tail -n 60 "$outputs/$(basename "$file").log" >&2
  done
  echo "smoke: ${#failed[@]} of ${#marked[@]} benchmark(s) failed: ${failed[*]}" >&2
  exit 1
fi
echo "smoke: ${#marked[@]} benchmark(s) ran: ${marked[*]}"
