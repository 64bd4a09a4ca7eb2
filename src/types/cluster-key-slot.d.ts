// cluster-key-slot (ioredis's own, pinned in package.json) ships no types.
declare module 'cluster-key-slot' {
  /** The Redis Cluster slot (0-16383) of a key, its hash tag honoured. */
  export default function calculateSlot(key: string): number;
}
