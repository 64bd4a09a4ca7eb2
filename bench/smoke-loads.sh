# Sourced by the benchmarks built on the kit's baseline.sh (bench/kit.sh) for their `--smoke` mode: the kit's
# loads cut to seconds (one round, a few hundred messages, 2 s of HTTP). The harness runs whole, with
# the full run's session counts (a limit on connections breaks the smoke run as it breaks the full
# one); no figure from it means anything.
export BENCH_REPEAT=1 BENCH_KA_MSGS=400 BENCH_NC_MSGS=100 BENCH_WARMUP_MSGS=50 \
  BENCH_SECS=2 BENCH_WARMUP_SECS=1
