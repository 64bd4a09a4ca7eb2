/**
 * The 6-digit codes the service e-mails (attach_human, close_space), read back from the outbox
 * transport's .eml files, as the human would read them.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import type { TestService } from './service.js';

/** The code in the newest code e-mail sent to `to`, or null when none was. */
export async function lastCode(svc: TestService, to: string): Promise<string | null> {
  const dir = join(svc.rt.config.dataDir, 'outbox');
  const files = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.eml')).sort().reverse();
  for (const file of files) {
    const raw = await readFile(join(dir, file));
    if (!raw.includes(to)) continue;
    const mail = await simpleParser(raw);
    const recipient = Array.isArray(mail.to) ? mail.to[0] : mail.to;
    if (recipient?.value[0]?.address !== to) continue;
    const code = /Code de confirmation : (\d{6})/.exec(mail.text ?? '');
    if (code) return code[1]!;
  }
  return null;
}
