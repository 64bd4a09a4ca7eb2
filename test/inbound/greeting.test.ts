/**
 * The greeting comes as soon as a connection is admitted (src/smtp/prompt-greeting.ts): a client that
 * talks first is served in order, on the inbound port and on submission; submission's connection cap
 * still answers 421; and the two smtp-server methods the prompt greeting replaces still read as they
 * did when it was written (an upgrade that changes them fails here first).
 */
import { connect } from 'node:net';
import t from 'tap';
import { SMTPServer } from 'smtp-server';
import { SMTPConnection } from 'smtp-server/lib/smtp-connection';
import { startSubmission } from '../../src/smtp/submission.js';
import { rawSession, startInbound } from '../helpers/inbound.js';
import { startService } from '../helpers/service.js';

const svc = await startService({ env: { SMTP_MAX_CONNECTIONS: '2' } });
const inbound = await startInbound(svc);
const submission = await startSubmission(svc.rt, { port: 0, host: '127.0.0.1' });
t.teardown(() => submission.close());

/** Everything the server says to a client that sends `lines` the moment it connects, until it closes. */
function talkingFirst(port: number, lines: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(lines.map((l) => `${l}\r\n`).join('')));
    let said = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (said += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve(said.split('\r\n').filter((line) => line && line[3] !== '-')));
  });
}

for (const [name, port] of [
  ['inbound', inbound.port],
  ['submission', submission.port],
] as const)
  t.test(`${name}: a client that talks before the greeting is greeted, then answered in order`, async (t) => {
    const said = await talkingFirst(port, ['EHLO client.test', 'NOOP', 'QUIT']);
    t.match(said, [/^220 /, /^250 /, /^250 /, /^221 /]);
    t.notMatch(said.join('\n'), /talk too soon/);
  });

t.test("submission: past its connection cap, 421 as the library's own limit says", async (t) => {
  const held = [await rawSession(submission.port), await rawSession(submission.port)];
  t.match(held[1]!.greeting, /^220 /);
  t.match(await talkingFirst(submission.port, []), [/^421 .*Too many connected clients/]);
  await held[0]!.say('QUIT');
  await held[0]!.closed;
});

// Normalised: white space folded, so a re-indented build of the library is the same text.
const text = (method: (...args: never[]) => unknown) => String(method).replace(/\s+/g, ' ');

t.test('the two smtp-server methods the prompt greeting replaces are unchanged', async (t) => {
  t.equal(
    text(SMTPConnection.prototype.init),
    "init() { // Setup event handlers for the socket this._setListeners(() => { // Check that connection limit is not exceeded if (this._server.options.maxClients && this._server.connections.size > this._server.options.maxClients) { return this.send(421, this.name + ' Too many connected clients, try again in a moment', false); } // Keep a small delay for detecting early talkers let readyTimer = setTimeout(() => this.connectionReady(), 100); // Unref timer so connection init delay doesn't prevent process exit readyTimer.unref(); }); }",
    'SMTPConnection#init: the limit, then a 100 ms wait before connectionReady',
  );
  t.equal(
    text(SMTPServer.prototype.connect),
    "connect(socket, socketOptions) { let connection = new SMTPConnection(this, socket, socketOptions); this.connections.add(connection); connection.on('error', err => this._onError(err)); connection.on('connect', data => this._onClientConnect(data)); connection.init(); }",
    'SMTPServer#connect',
  );
});
