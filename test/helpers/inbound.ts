/**
 * The inbound SMTP front end of a test service on a free loopback port, and a real SMTP client
 * (nodemailer) to send into it, as another mail system would.
 */
import { connect } from 'node:net';
import t from 'tap';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer/index.js';
import { startSmtp } from '../../src/smtp/server.js';
import type { TestService } from './service.js';

export interface Inbound {
  port: number;
  /** Sends one message; resolves with nodemailer's info, rejects with the server's refusal. */
  send(mail: Mail.Options): Promise<{ accepted: unknown[]; rejected: unknown[]; response: string }>;
}

export async function startInbound(svc: TestService): Promise<Inbound> {
  const smtp = await startSmtp(svc.rt, { port: 0, host: '127.0.0.1' });
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: smtp.port,
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: 4,
  });
  t.teardown(async () => {
    transport.close();
    await smtp.close();
  });
  return { port: smtp.port, send: (mail) => transport.sendMail(mail) };
}

/**
 * A raw SMTP session, for what a client library does in one go: `say` sends a line (none for the
 * greeting) and resolves with the server's whole reply (its last line, with the code); `closed`
 * resolves when the server ended the connection. `localAddress` (127.0.0.x) plays another client.
 */
export async function rawSession(port: number, localAddress = '127.0.0.1') {
  const socket = connect({ port, host: '127.0.0.1', localAddress });
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.setEncoding('utf8');
  // The server may end the session: later writes then fail, and the test reads `closed`.
  socket.on('error', () => undefined);
  t.teardown(() => socket.destroy());
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  // A reply nobody waits for yet (a 421 the server sends on its own) is kept for the next `say`.
  const unclaimed: string[] = [];
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    for (let end; (end = buffered.indexOf('\r\n')) >= 0;) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      if (line[3] === '-') continue;
      const waiter = waiting.shift();
      if (waiter) waiter(line);
      else unclaimed.push(line);
    }
  });
  const say = (line?: string) =>
    new Promise<string>((resolve) => {
      if (line !== undefined && socket.writable) socket.write(`${line}\r\n`);
      const early = unclaimed.shift();
      if (early !== undefined) resolve(early);
      else waiting.push(resolve);
    });
  const greeting = await say();
  return { say, greeting, closed, write: (bytes: string) => socket.writable && socket.write(bytes) };
}

/** A raw session of `port` at DATA for `to`, from `from`: what it says next is the message. */
export async function atData(port: number, to: string, from = 'expediteur@client.test') {
  const session = await rawSession(port);
  await session.say('EHLO client.test');
  await session.say(`MAIL FROM:<${from}>`);
  await session.say(`RCPT TO:<${to}>`);
  t.match(await session.say('DATA'), /^354 /);
  return session;
}
