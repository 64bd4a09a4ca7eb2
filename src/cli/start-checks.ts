/** What a start warns the operator about in its configuration, without refusing to run. */
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
    log.warn('BASE_URL is http:// on a public host: unsubscribe links must be https (Gmail and Yahoo require it)', { base_url: config.baseUrl });
  }
}
