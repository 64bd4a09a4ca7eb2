/** JSON lines on stderr. Callers pass ids and codes, never secrets or message bodies. */
const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
export type LogLevel = keyof typeof LEVELS;

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: LogLevel): Logger {
  const threshold = LEVELS[level] ?? LEVELS.info;
  const write =
    (at: LogLevel) =>
    (msg: string, fields: Record<string, unknown> = {}) => {
      if (LEVELS[at] < threshold) return;
      process.stderr.write(JSON.stringify({ t: new Date().toISOString(), level: at, msg, ...fields }) + '\n');
    };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}
