/** What a start warns the operator about in its configuration, without refusing to run. */
import { spawnSync } from 'node:child_process';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';

const LOCAL_HOST = /^(localhost|.*\.localhost|127(\.\d{1,3}){3}|\[::1\])$/;

/**
 * BASE_URL builds the unsubscribe links of every message: Gmail and Yahoo require them in https, so
 * an http:// BASE_URL is only right on this machine.
 */
export function warnAtStart(config: Config, log: Logger): void {
  const url = new URL(config.baseUrl);
  if (url.protocol === 'http:' && !LOCAL_HOST.test(url.hostname.replace(/\.$/, ''))) {
    log.warn('BASE_URL is http:// on a public host: unsubscribe links must be https (Gmail and Yahoo require it)', {
      base_url: config.baseUrl,
    });
  }
  // Off loopback a key is taken only over STARTTLS (src/smtp/submit.ts): without a certificate, only this machine can submit.
  if (config.submissionPort !== null && !config.smtpTls) {
    log.warn(
      'SUBMISSION_PORT is set without SMTP_TLS_KEY_FILE and SMTP_TLS_CERT_FILE: only clients on loopback can authenticate; docs/operations.md, "SMTP submission"',
    );
  }
  // The PDF process bounds its own memory with util-linux's prlimit (src/mail/sandbox.ts); without it, it does not run.
  if (spawnSync('prlimit', ['--version'], { stdio: 'ignore' }).status !== 0) {
    log.warn(
      'prlimit (util-linux) is not installed: PDF attachments get no text (text_unavailable "unreadable"); docs/operations.md, "Limits on untrusted content"',
    );
  }
}
