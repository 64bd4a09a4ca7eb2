import { randomBytes, randomInt } from 'node:crypto';
import type { Clock } from './clock.js';

/** Crockford base32, lowercase: no i, l, o, u, so ids read aloud and copy well. */
export const ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const TIME_CHARS = 10;
const RANDOM_CHARS = 10;
const RANDOM_POOL_BYTES = 1000;

export const ID_PREFIXES = {
  space: 'spc',
  inbox: 'inb',
  thread: 'thr',
  message: 'msg',
  campaign: 'cmp',
  audience: 'aud',
  key: 'key',
  domain: 'dom',
  event: 'evt',
  contact: 'ctc',
  workspace: 'wsi',
  suppression: 'sup',
  filter: 'flt',
  journal: 'log',
  attachment: 'att',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

/** The length of an id without its prefix: 10 time characters, then 10 random ones. */
export const ID_BODY_CHARS = TIME_CHARS + RANDOM_CHARS;
export const ID_BODY_PATTERN = `[${ALPHABET}]{${ID_BODY_CHARS}}`;
export const idPattern = (kind: IdKind): string => `^${ID_PREFIXES[kind]}_${ID_BODY_PATTERN}$`;

export function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < TIME_CHARS; i++) {
    out = ALPHABET[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

/** The ms an id body's first 10 characters tell (the inverse of encodeTime). */
export function decodeTime(body: string): number {
  let ms = 0;
  for (let i = 0; i < TIME_CHARS; i++) ms = ms * 32 + ALPHABET.indexOf(body[i]!);
  return ms;
}

/** The creation time (ms) of a time-ordered id. */
export const idTime = (id: string): number => decodeTime(idBody(id));

/**
 * Time-ordered ids (ULID-like): 10 chars of milliseconds then 10 random chars, so a list sorted by
 * id is sorted by creation time, and a time range is a lexicographic range of ids.
 */
export class IdFactory {
  private lastTime = -1;
  private lastTimeText = '';
  private lastRandom: number[] = [];
  /** Random bytes drawn ahead, RANDOM_CHARS per new millisecond: one draw serves about a hundred ids. */
  private pool: Buffer = Buffer.alloc(0);
  private poolAt = 0;

  constructor(private readonly clock: Clock) {}

  next(kind: IdKind): string {
    const now = this.clock.now();
    if (now === this.lastTime) {
      // Same millisecond: the next id is the previous one plus one, so one process's ids stay in order.
      let i = RANDOM_CHARS - 1;
      while (i >= 0 && this.lastRandom[i] === 31) this.lastRandom[i--] = 0;
      if (i >= 0) this.lastRandom[i]!++;
    } else {
      this.lastTime = now;
      this.lastTimeText = encodeTime(now);
      if (this.poolAt + RANDOM_CHARS > this.pool.length) [this.pool, this.poolAt] = [randomBytes(RANDOM_POOL_BYTES), 0];
      for (let i = 0; i < RANDOM_CHARS; i++) this.lastRandom[i] = this.pool[this.poolAt++]! & 15;
    }
    let random = '';
    for (const digit of this.lastRandom) random += ALPHABET[digit];
    return `${ID_PREFIXES[kind]}_${this.lastTimeText}${random}`;
  }
}

/** The body of an id (what follows `xxx_`). */
export const idBody = (id: string): string => id.slice(id.indexOf('_') + 1);

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export function randomDigits(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += String(randomInt(10));
  return out;
}
