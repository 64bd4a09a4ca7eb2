/**
 * The 6-digit codes the service e-mails (attach_human, close_space, the sign-in), read back from the
 * outbox transport's .eml files, as the human would read them.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { signInMailsSent } from '../../actors/signin-codes.js';
import type { TestService } from './service.js';

/** The code e-mails sent to `to`, oldest first: each one's code and whole text (sign-in codes leave after the page's answer: awaited). */
export async function codeMailsSent(svc: TestService, to: string): Promise<{ code: string; text: string }[]> {
  await signInMailsSent();
  const dir = join(svc.rt.config.dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml')).sort();
  const mails: { code: string; text: string }[] = [];
  for (const file of files) {
    const raw = await readFile(join(dir, file));
    if (!raw.includes(to)) continue;
    const mail = await simpleParser(raw);
    const recipient = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    if (recipient?.value[0]?.address !== to) continue;
    const code = /Code de confirmation : (\d{6})/.exec(mail.text ?? '');
    if (code) mails.push({ code: code[1]!, text: mail.text! });
  }
  return mails;
}

/** The codes of the code e-mails sent to `to`, oldest first. */
export const codesSent = async (svc: TestService, to: string): Promise<string[]> =>
  (await codeMailsSent(svc, to)).map((mail) => mail.code);

/** The newest code e-mail sent to `to`, or null when none was. */
export const lastCodeMail = async (svc: TestService, to: string): Promise<{ code: string; text: string } | null> =>
  (await codeMailsSent(svc, to)).at(-1) ?? null;

/** The code in the newest code e-mail sent to `to`, or null when none was. */
export const lastCode = async (svc: TestService, to: string): Promise<string | null> =>
  (await lastCodeMail(svc, to))?.code ?? null;
