/**
 * The SMTP submission front end (SUBMISSION_PORT, off unless set; 587 in production), for programs
 * that only speak SMTP: smtp-server on SMTP_HOST, every command a short hook chain of the named stages
 * of src/smtp/submit.ts. AUTH PLAIN or LOGIN with an API key as password (STARTTLS first, unless the
 * client is on loopback), MAIL FROM an inbox the key may use, one recipient, DATA becomes a send_email
 * or a reply_to_thread through the tool dispatch. The 250 names the message written and its status
 * (`250 2.0.0 msg_... queued`, or `draft` when it waits for a human). This file holds
 * the wiring and the per-session state only (docs/operations.md, "SMTP submission").
 */
import type { Access } from '../../actors/space.js';
import type { Runtime } from '../runtime.js';
import { PromptSmtpServer } from './prompt-greeting.js';
import { runChain, smtpReply, type Stage, type Verdict } from './chain.js';
import {
  encryptedOrLoopback,
  keyAccess,
  readSubmitted,
  senderInbox,
  submitMessage,
  type AuthContext,
  type SenderContext,
  type SubmitContext,
} from './submit.js';
import { listenSmtp, readSmtpTls, type SmtpFrontEnd } from './listen.js';

/** AUTH and MAIL FROM read a few Redis keys; DATA reads the message and writes it like an API call. */
const COMMAND_TIMEOUT_MS = 5_000;
const DATA_TIMEOUT_MS = 60_000;

const authStages: Stage<AuthContext>[] = [encryptedOrLoopback, keyAccess];
const senderStages: Stage<SenderContext>[] = [senderInbox];
const dataStages: Stage<SubmitContext>[] = [readSubmitted, submitMessage];

/** What a session holds: the key it authenticated with, then the access and inbox of its current MAIL FROM. */
interface Submitter {
  secret: string;
  sender: { access: Access; inbox: { id: string; address: string } } | null;
}

export async function startSubmission(rt: Runtime, options: { port: number; host: string }): Promise<SmtpFrontEnd> {
  const config = rt.config;
  const tls = readSmtpTls(config);
  const submitters = new Map<string, Submitter>();
  const logError = (error: unknown) =>
    rt.log.error('smtp submission stage failed', { error: error instanceof Error ? error.message : String(error) });
  const replied = (verdict: Verdict, accept: () => void, callback: (error: ReturnType<typeof smtpReply>) => void) => {
    const reply = smtpReply(verdict);
    if (reply) callback(reply);
    else accept();
  };

  const server = new PromptSmtpServer({
    name: config.mxHost,
    banner: 'Mailbox submission',
    logger: false,
    size: config.smtpMessage.bytes,
    maxClients: config.smtpSession.connections,
    disableReverseLookup: true,
    authMethods: ['PLAIN', 'LOGIN'],
    // The stage encryptedOrLoopback decides: a client on loopback may AUTH without TLS.
    allowInsecureAuth: true,
    disabledCommands: tls ? [] : ['STARTTLS'],
    hideSTARTTLS: !tls,
    ...(tls ?? {}),
    // Admitted in the tick it connected (the library's default waits one): a client that talks first is
    // then served in order, not refused as too early.
    onConnect(_session, callback) {
      callback();
    },
    onAuth(auth, session, callback) {
      const ctx: AuthContext = {
        rt,
        secret: auth.password ?? '',
        secure: session.secure,
        address: session.remoteAddress,
        access: null,
      };
      void runChain(authStages, ctx, COMMAND_TIMEOUT_MS, logError).then((verdict) =>
        replied(
          verdict,
          () => {
            submitters.set(session.id, { secret: ctx.secret, sender: null });
            callback(null, { user: ctx.access!.key.id });
          },
          callback,
        ),
      );
    },
    onMailFrom(address, session, callback) {
      const submitter = submitters.get(session.id)!;
      submitter.sender = null;
      const ctx: SenderContext = { rt, secret: submitter.secret, address: address.address, access: null, inbox: null };
      void runChain(senderStages, ctx, COMMAND_TIMEOUT_MS, logError).then((verdict) =>
        replied(
          verdict,
          () => {
            submitter.sender = { access: ctx.access!, inbox: ctx.inbox! };
            callback();
          },
          callback,
        ),
      );
    },
    onData(stream, session, callback) {
      const { access, inbox } = submitters.get(session.id)!.sender!;
      const envelope = session.envelope.rcptTo.map((rcpt) => rcpt.address);
      const ctx: SubmitContext = {
        rt,
        stream,
        access,
        inbox,
        envelope,
        limits: config.smtpMessage,
        mail: null,
        accepted: null,
      };
      void runChain(dataStages, ctx, DATA_TIMEOUT_MS, logError).then((verdict) => {
        // A stage that gave up early leaves bytes unread: drain them so the session can answer.
        if (!stream.readableEnded) stream.resume();
        const reply = smtpReply(verdict);
        if (reply) callback(reply);
        else callback(null, ctx.accepted!);
      });
    },
    onClose(session) {
      submitters.delete(session.id);
    },
  });
  return listenSmtp(rt, server, 'smtp submission server', options);
}
