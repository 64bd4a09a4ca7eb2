/**
 * The bounds a message must keep before mailparser and mailauth see it, judged on the raw DATA
 * bytes as they pass: their costs grow with these shapes (a From of 40,000 addresses held the event
 * loop 5.5 s), so a message past one of them is refused before any parser runs on it. One pass, a
 * line at a time: header fields per header section (the message's and each part's), one field's
 * size, a section's size, addresses in an address field, MIME nesting depth and parts, total size.
 */
import type { MessageLimits } from '../config.js';

/** The first bound a message passed, and its value. */
export interface Breach {
  limit: keyof MessageLimits;
  max: number;
}

/** The fields mailparser parses as address lists: their cost grows with the number of addresses. */
const ADDRESS_FIELDS = new Set(['from', 'to', 'cc', 'bcc', 'sender', 'reply-to', 'delivered-to', 'return-path']);
/** The fields that say how a part nests. */
const SHAPE_FIELDS = new Set(['content-type', 'content-transfer-encoding']);
/**
 * A boundary has at most 70 characters (RFC 2046), between `--` and an optional closing `--`, plus room
 * for the transport padding (trailing white space) a delimiter line may carry: a longer body line is never
 * a delimiter.
 */
const DELIMITER_MAX = 2 + 70 + 2 + 32;
/** mailparser reads an embedded message's headers only when it is not encoded. */
const PLAIN_ENCODINGS = new Set(['', '7bit', '8bit', 'binary']);

const LF = 0x0a;
const CR = 0x0d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** An open multipart (its boundary) or an embedded message (null): one level of depth. */
type Frame = string | null;

interface Field {
  name: string;
  bytes: number;
  addresses: number;
  quoted: boolean;
  escaped: boolean;
  /** Kept for the shape fields only. */
  value: string;
}

function boundaryOf(contentType: string): string | null {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2])! : null;
}

/** Returns a function fed every chunk of the message in order: the first breach, then always it. */
export function messageScanner(limits: MessageLimits): (chunk: Buffer) => Breach | null {
  const frames: Frame[] = [];
  let breach: Breach | null = null;
  let total = 0;
  let parts = 0;
  let inHead = true;
  // The current line: its start (all of it in a header; a delimiter's worth in a body) and its length.
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  // The current header section.
  let headers = 0;
  let sectionBytes = 0;
  let field: Field | null = null;
  let shape: Record<string, string> = {};

  const over = (limit: keyof MessageLimits, value: number): boolean => {
    if (value <= limits[limit]) return false;
    breach = { limit, max: limits[limit] };
    return true;
  };

  const closeField = () => {
    if (field && SHAPE_FIELDS.has(field.name)) shape[field.name] = field.value.trim().toLowerCase();
    field = null;
  };

  /** Counts the commas outside quoted strings: each separates one more address. */
  const countAddresses = (current: Field, line: Buffer, from: number) => {
    for (let i = from; i < line.length; i++) {
      const byte = line[i];
      if (current.escaped) current.escaped = false;
      else if (byte === BACKSLASH) current.escaped = current.quoted;
      else if (byte === QUOTE) current.quoted = !current.quoted;
      else if (byte === COMMA && !current.quoted) current.addresses++;
    }
  };

  const startSection = () => {
    inHead = true;
    headers = 0;
    sectionBytes = 0;
    shape = {};
  };

  /** The blank line after a header section: what follows is a body, or an embedded message's headers. */
  const endSection = () => {
    closeField();
    const type = shape['content-type'] ?? '';
    const boundary = type.startsWith('multipart/') ? boundaryOf(type) : null;
    const embedded = type.startsWith('message/rfc822') && PLAIN_ENCODINGS.has(shape['content-transfer-encoding'] ?? '');
    inHead = false;
    if (!boundary && !embedded) return;
    frames.push(boundary);
    if (over('mimeDepth', frames.length)) return;
    if (embedded && !over('mimeParts', ++parts)) startSection();
  };

  const headerLine = (line: Buffer) => {
    if (line.length === 0) return endSection();
    if (over('headerSectionBytes', (sectionBytes += line.length + 2))) return;
    const folded = line[0] === 0x20 || line[0] === 0x09;
    if (!folded || !field) {
      closeField();
      if (over('headers', ++headers)) return;
      const colon = line.indexOf(':');
      const name = line
        .toString('latin1', 0, colon < 0 ? 0 : colon)
        .trim()
        .toLowerCase();
      field = { name, bytes: 0, addresses: 1, quoted: false, escaped: false, value: '' };
    }
    const current: Field = field;
    if (over('headerBytes', (current.bytes += line.length))) return;
    const valueStart = folded ? 0 : line.indexOf(':') + 1;
    if (ADDRESS_FIELDS.has(current.name)) {
      countAddresses(current, line, valueStart);
      if (over('addressesPerHeader', current.addresses)) return;
    }
    if (SHAPE_FIELDS.has(current.name)) current.value += line.toString('latin1', valueStart);
  };

  /** A body line matters only as a delimiter of an open multipart: a new part, or its end. */
  const bodyLine = (line: Buffer, length: number) => {
    if (length > DELIMITER_MAX || line[0] !== 0x2d || line[1] !== 0x2d || !frames.length) return;
    const text = line.toString('latin1').trimEnd();
    for (let level = frames.length - 1; level >= 0; level--) {
      const boundary = frames[level];
      if (boundary === null) continue;
      if (text === `--${boundary}--`) {
        frames.length = level;
        return;
      }
      if (text === `--${boundary}`) {
        frames.length = level + 1;
        if (!over('mimeParts', ++parts)) startSection();
        return;
      }
    }
  };

  const endLine = (line: Buffer, length: number) => {
    const end = line.length && line[line.length - 1] === CR ? line.length - 1 : line.length;
    if (inHead) headerLine(line.subarray(0, end));
    else bodyLine(line.subarray(0, end), length - (end < line.length ? 1 : 0));
  };

  /** Keeps the start of an unfinished line: all of a header line (bounded), a delimiter's worth of a body line. */
  const keep = (piece: Buffer) => {
    const room = inHead ? piece.length : Math.max(0, DELIMITER_MAX + 2 - pendingBytes);
    if (room) pending.push(piece.subarray(0, room));
    pendingBytes += piece.length;
    // A header line that never ends is refused as it grows, not once it ended.
    if (inHead && !over('headerBytes', pendingBytes)) over('headerSectionBytes', sectionBytes + pendingBytes);
  };

  return (chunk) => {
    if (breach || over('bytes', (total += chunk.length))) return breach;
    let start = 0;
    for (let end; !breach && (end = chunk.indexOf(LF, start)) >= 0; start = end + 1) {
      const piece = chunk.subarray(start, end);
      const line = pending.length ? Buffer.concat([...pending, piece]) : piece;
      const length = pendingBytes + piece.length;
      pending = [];
      pendingBytes = 0;
      endLine(line, length);
    }
    if (!breach && start < chunk.length) keep(chunk.subarray(start));
    return breach;
  };
}
