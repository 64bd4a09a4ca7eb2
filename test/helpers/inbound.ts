/**
 * The inbound SMTP front end of a test service on a free loopback port, and a real SMTP client
 * (nodemailer) to send into it, as another mail system would.
 */
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
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port: smtp.port, secure: false, ignoreTLS: true, pool: true, maxConnections: 4 });
  t.teardown(async () => {
    transport.close();
    await smtp.close();
  });
  return { port: smtp.port, send: (mail) => transport.sendMail(mail) };
}
