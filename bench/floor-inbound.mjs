// The inbound path's floor: bare smtp-server that reads each message through the project's own
// parse (src/smtp/parse.ts: mailparser, and mailauth's SPF, DKIM, DMARC and ARC with the cached
// resolver), then answers 250 without storing anything. FLOOR=parser keeps only mailparser.
// Run by bench/inbound-floor.sh under the kit beside Haraka: what the required libraries alone allow.
import { SMTPServer } from 'smtp-server';
import mailparser from 'mailparser';
import { loadConfig } from '../dist/src/config.js';
import { mailauthResolver } from '../dist/src/smtp/dns.js';
import { parseStream } from '../dist/src/smtp/parse.js';

const config = loadConfig(process.env);
const resolver = mailauthResolver(config, Date.now);
const parserOnly = process.env.FLOOR === 'parser';

const server = new SMTPServer({
  logger: false,
  authOptional: true,
  disableReverseLookup: true,
  disabledCommands: ['AUTH', 'STARTTLS'],
  hideSTARTTLS: true,
  onData(stream, session, callback) {
    const reading = parserOnly
      ? mailparser.simpleParser(stream, { skipImageLinks: true, skipTextLinks: true, skipTextToHtml: true })
      : parseStream(
          stream,
          {
            ip: session.remoteAddress,
            helo: session.hostNameAppearsAs,
            mailFrom: session.envelope.mailFrom?.address ?? '',
            mta: 'floor',
            resolver,
          },
          { rawMax: 0, limits: config.smtpMessage, content: config.content },
        );
    reading.then(() => callback(null), callback);
  },
});
server.listen(Number(process.env.SMTP_PORT), '127.0.0.1');
