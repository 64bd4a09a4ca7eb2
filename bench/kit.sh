# Sourced from the repository root by every harness that measures beside the side-by-side kit (its peers,
# loads and setup.sh): BENCH_KIT names it; by default it is `shared/bench` beside this checkout, where CI
# puts it. Exported for the Node harnesses the scripts start.
# shellcheck shell=bash
BENCH_KIT=${BENCH_KIT:-$(dirname "$PWD")/shared/bench}
export BENCH_KIT
kit_present() { [[ -x $BENCH_KIT/setup.sh ]]; }
kit=$(cd "$BENCH_KIT" 2>/dev/null && pwd || echo "$BENCH_KIT")
