-- wrk script: POSTs $BENCH_BODY at a fixed total rate ($BENCH_RATE requests/s per wrk thread), open
-- loop: each request takes the next free slot of one schedule shared by the thread's connections, so
-- a slow answer does not slow the offered load (with enough connections). Latency counts from the
-- write. Prints one line like the kit's post.lua. A C load generator: no pauses of its own in the
-- measured tail (a Node client's collections showed up in it).
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } timespec_t;
  int clock_gettime(int clk, timespec_t *tp);
]]
local ts = ffi.new("timespec_t")
local function now_ms()
  ffi.C.clock_gettime(1, ts) -- CLOCK_MONOTONIC
  return tonumber(ts.tv_sec) * 1000 + tonumber(ts.tv_nsec) / 1e6
end

local f = assert(io.open(os.getenv("BENCH_BODY"), "rb"))
wrk.method = "POST"
wrk.body = f:read("*a")
f:close()
wrk.headers["Content-Type"] = "application/json"
local auth = os.getenv("BENCH_AUTH")
if auth and auth ~= "" then wrk.headers["Authorization"] = auth end

local interval = 1000 / tonumber(os.getenv("BENCH_RATE") or "2000")
local next_slot = nil

function delay()
  local t = now_ms()
  if next_slot == nil or next_slot < t then next_slot = t end
  local wait = next_slot - t
  next_slot = next_slot + interval
  return wait
end

function done(summary, latency, requests)
  local secs = summary.duration / 1e6
  local e = summary.errors
  io.write(string.format("RESULT requests=%d secs=%.2f req_s=%.0f p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f max_ms=%.2f bad_status=%d sock_errors=%d\n",
    summary.requests, secs, summary.requests / secs, latency:percentile(50) / 1000,
    latency:percentile(99) / 1000, latency:percentile(99.9) / 1000, latency.max / 1000, e.status, e.connect + e.read + e.write + e.timeout))
end
