/**
 * SMTP as a hook chain (Haraka's lesson, docs/architecture.md): each stage of a session answers
 * continue, accept, tempfail (4xx: the sender retries) or reject (5xx: it gives up and tells its
 * user). A stage that throws or runs past its time tempfails: mail is never accepted silently nor lost.
 */
export type Verdict =
  | { kind: 'continue' }
  | { kind: 'accept' }
  | { kind: 'tempfail'; code: number; message: string; delayMs?: number }
  | { kind: 'reject'; code: number; message: string; delayMs?: number };

export const CONTINUE: Verdict = { kind: 'continue' };
export const ACCEPT: Verdict = { kind: 'accept' };
/** `delayMs`: answer that much later (a tarpit for a peer that guesses). */
export const tempfail = (message: string, code = 451, delayMs = 0): Verdict => ({
  kind: 'tempfail',
  code,
  message,
  ...(delayMs ? { delayMs } : {}),
});
export const reject = (message: string, code = 550, delayMs = 0): Verdict => ({
  kind: 'reject',
  code,
  message,
  ...(delayMs ? { delayMs } : {}),
});

export type Stage<C> = (context: C) => Promise<Verdict>;

const TIMED_OUT = Symbol('timeout');

/**
 * Runs stages in order until one answers something else than continue; the chain's end accepts.
 * `onError` hears the cause of a stage that failed (logged by the server, never shown to the peer).
 */
export async function runChain<C>(
  stages: readonly Stage<C>[],
  context: C,
  timeoutMs: number,
  onError: (error: unknown) => void,
): Promise<Verdict> {
  for (const stage of stages) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>(
      (resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)),
    );
    try {
      const verdict = await Promise.race([stage(context), timeout]);
      if (verdict === TIMED_OUT) return tempfail('4.3.0 Traitement trop long, réessayez plus tard');
      if (verdict.kind !== 'continue') return verdict;
    } catch (error) {
      onError(error);
      return tempfail('4.3.0 Erreur temporaire du serveur, réessayez plus tard');
    } finally {
      clearTimeout(timer);
    }
  }
  return ACCEPT;
}

/** Hands a verdict to smtp-server, after its delay when it has one (a refusal slowed down on purpose). */
export function answer(verdict: Verdict, callback: (reply: ReturnType<typeof smtpReply>) => void): void {
  const delayMs = verdict.kind === 'tempfail' || verdict.kind === 'reject' ? (verdict.delayMs ?? 0) : 0;
  if (delayMs) setTimeout(() => callback(smtpReply(verdict)), delayMs).unref();
  else callback(smtpReply(verdict));
}

/** A verdict as smtp-server's callback error: null accepts. */
export function smtpReply(verdict: Verdict): (Error & { responseCode: number }) | null {
  if (verdict.kind === 'accept' || verdict.kind === 'continue') return null;
  return Object.assign(new Error(verdict.message), { responseCode: verdict.code });
}
