/**
 * How long a message waits after a temporary failure (a 4xx, a timeout, no connection): 1 min, 5 min,
 * 30 min, 2 h, 6 h, then it is `failed`. Attempt n waits RETRY_DELAYS_MS[n - 1].
 */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000];
