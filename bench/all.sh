#!/usr/bin/env bash
# `npm run bench`: every benchmark in full, one after the other (about 40 min here), then their tables,
# each under the command that printed it, written into BENCHMARKS.md between the "latest full run"
# markers, replacing the previous run's. The benchmarks are the files bench/smoke.sh runs (those holding
# the marker @bench-smoke, BENCHMARKS.md "Smoke mode"), here without --smoke: a new one joins both by
# its marker. The hand-written sections of BENCHMARKS.md (what each does, how to read it, the reference
# runs) stay as they are. A benchmark that fails stops the run and BENCHMARKS.md is left untouched. Run
# it alone on the machine (`flock /tmp/fullsuite.lock npm run bench` where several people share it).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t marked < <(bash bench/marked.sh)
npm run build >/dev/null
export MAILBOX_BENCH_BUILT=1  # the harnesses need not build again (bench/build.sh)
run=$(mktemp -t mailbox-bench-all.XXXXXX)
trap 'rm -f "$run"' EXIT
echo "Run of $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD), \`npm run bench\`; $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start." >"$run"
for file in "${marked[@]}"; do
  case $file in *.mjs) command="node $file" ;; *) command="bash $file" ;; esac
  echo "== $command" >&2
  { echo; echo "#### \`$command\`"; echo; } >>"$run"
  $command | tee -a "$run"
done
node -e '
  const fs = require("fs");
  const [file, run] = process.argv.slice(1);
  const start = "<!-- latest full run: written by bench/all.sh -->", end = "<!-- end of the latest full run -->";
  const text = fs.readFileSync(file, "utf8");
  const from = text.indexOf(start), to = text.indexOf(end);
  if (from < 0 || to < from) throw new Error(`${file} lacks the markers of the latest full run`);
  fs.writeFileSync(file, text.slice(0, from + start.length) + "\n" + fs.readFileSync(run, "utf8") + "\n" + text.slice(to));
' BENCHMARKS.md "$run"
echo "BENCHMARKS.md: the latest full run written" >&2
