/** What the SMTP front ends (inbound, src/smtp/server.ts; submission, src/smtp/submission.ts) share: their TLS files and how they listen. */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { SMTPServer } from 'smtp-server';
import type { Config } from '../config.js';
import type { Runtime } from '../runtime.js';

export interface SmtpFrontEnd {
  port: number;
  close(): Promise<void>;
}

/** The STARTTLS key and certificate (SMTP_TLS_KEY_FILE, SMTP_TLS_CERT_FILE), read at start; null: no STARTTLS. */
export const readSmtpTls = (config: Config): { key: Buffer; cert: Buffer } | null =>
  config.smtpTls ? { key: readFileSync(config.smtpTls.keyFile), cert: readFileSync(config.smtpTls.certFile) } : null;

/** Listens on `port` (0: a free one) and `host`; an error of the server after that is logged under `name`. */
export async function listenSmtp(
  rt: Runtime,
  server: SMTPServer,
  name: string,
  options: { port: number; host: string },
): Promise<SmtpFrontEnd> {
  server.on('error', (error: Error) => rt.log.warn(`${name} error`, { error: error.message }));
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.server.address() as AddressInfo).port,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
