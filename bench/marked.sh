#!/usr/bin/env bash
# The benchmarks, one a line: the files under bench/ whose text holds the marker @bench-smoke
# (BENCHMARKS.md, "Smoke mode"). The runners that name the marker (this file, smoke.sh, all.sh) are
# not benchmarks: all.sh running itself would never end.
cd "$(dirname "$0")/.."
grep -l '@bench-smoke' bench/*.sh bench/*.mjs | grep -v -x -e bench/marked.sh -e bench/smoke.sh -e bench/all.sh
