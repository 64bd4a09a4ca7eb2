/**
 * HTTP_ENGINE's choice: the first uWebSockets.js build that loads on this Node, or node:http
 * (src/http/node-engine.ts), both behind the interface of src/http/uws.ts.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { HttpEngineChoice } from '../config.js';
import { nodeEngine } from './node-engine.js';
import type { HttpEngine } from './uws.js';

/** Where uWS comes from, in the order `auto` tries them; `load` throws when it cannot. */
export interface UwsSource {
  name: string;
  load(): HttpEngine;
}

const require = createRequire(import.meta.url);

const UWS_SOURCES: UwsSource[] = [
  // The official build, installed from its git repository; absent from the npm registry.
  { name: 'uWebSockets.js', load: () => require('uWebSockets.js') as HttpEngine },
  {
    name: '@trufflesuite/uws-js-unofficial',
    load: () => {
      const dir = dirname(require.resolve('@trufflesuite/uws-js-unofficial/package.json'));
      return require(
        join(dir, 'binaries', `uws_${process.platform}_${process.arch}_${process.versions.modules}.node`),
      ) as HttpEngine;
    },
  },
];

export interface ChosenEngine {
  engine: HttpEngine;
  /** Why uWS was passed over, for the start log; null when uWS runs or `node` was asked for. */
  warning: string | null;
}

/**
 * HTTP_ENGINE: `node` is node:http; `uws` is the first uWS build that loads, and an error naming
 * every failure when none does; `auto` falls back from uWS to node:http with a warning.
 */
export function chooseEngine(choice: HttpEngineChoice, sources: UwsSource[] = UWS_SOURCES): ChosenEngine {
  if (choice === 'node') return { engine: nodeEngine, warning: null };
  const failures: string[] = [];
  for (const source of sources) {
    try {
      // The module as it is, named: bench/webhook-receiver.mjs uses its SSLApp too.
      return { engine: { ...source.load(), name: source.name }, warning: null };
    } catch (error) {
      failures.push(`${source.name}: ${(error as Error).message.split('\n')[0]}`);
    }
  }
  const why = `no uWebSockets.js build loads on Node ${process.version} (${failures.join('; ')})`;
  if (choice === 'uws') throw new Error(`HTTP_ENGINE=uws, but ${why}`);
  return {
    engine: nodeEngine,
    warning: `${why}: serving HTTP with node:http, slower; HTTP_ENGINE=node hides this warning`,
  };
}
