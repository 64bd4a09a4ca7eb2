/**
 * SMTP as a hook chain (Haraka's lesson, docs/architecture.md): each stage of a session answers
 * continue, accept, tempfail (4xx: the sender retries) or reject (5xx: it gives up and tells its
 * user). A stage that throws or runs past its time tempfails: mail is never accepted silently nor lost.
 */
export type Verdict =
  | { kind: 'continue' }
  | { kind: 'accept' }
  | { kind: 'tempfail'; code: number; message: string }
  | { kind: 'reject'; code: number; message: string };

export const CONTINUE: Verdict = { kind: 'continue' };
export const ACCEPT: Verdict = { kind: 'accept' };
export const tempfail = (message: string, code = 451): Verdict => ({ kind: 'tempfail', code, message });
export const reject = (message: string, code = 550): Verdict => ({ kind: 'reject', code, message });

export type Stage<C> = (context: C) => Promise<Verdict>;

const TIMED_OUT = Symbol('timeout');

/**
 * Runs stages in order until one answers something else than continue; the chain's end accepts.
 * `onError` hears the cause of a stage that failed (logged by the server, never shown to the peer).
 */
export async function runChain<C>(stages: readonly Stage<C>[], context: C, timeoutMs: number, onError: (error: unknown) => void): Promise<Verdict> {
  for (const stage of stages) {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), timeoutMs)));
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

/** A verdict as smtp-server's callback error: null accepts. */
export function smtpReply(verdict: Verdict): (Error & { responseCode: number }) | null {
  if (verdict.kind === 'accept' || verdict.kind === 'continue') return null;
  return Object.assign(new Error(verdict.message), { responseCode: verdict.code });
}
