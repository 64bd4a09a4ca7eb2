// What the Node benchmarks share (bench/lib.sh is the shell side).
import { createServer } from 'node:net';

/** A loopback port free at this moment, for a server the benchmark starts. */
export const freePort = () =>
  new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
