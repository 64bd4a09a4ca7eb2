/**
 * What an outgoing file may be (docs/contract.md, Decision 10): a plain name (no path, no control character, at
 * most 255 characters), a type its content does not contradict, nothing a mail client would run,
 * within ATTACHMENT_MAX_BYTES for the whole message. A rule of the mail layer: values in, a refusal
 * (`attachment_refused`, hint {filename, reason}) or the checked file out, no I/O.
 */
import { fileTypeFromBuffer, supportedMimeTypes } from 'file-type';
import { MailboxError } from '../errors.js';

const FILENAME_MAX_CHARS = 255;

/** Types a mail client or a desktop may run: refused whatever the content. */
const RUNNABLE_TYPES = new Set([
  'application/x-msdownload',
  'application/x-dosexec',
  'application/x-executable',
  'application/x-elf',
  'application/x-mach-binary',
  'application/x-sharedlib',
  'application/vnd.microsoft.portable-executable',
  'application/x-msi',
  'application/x-ms-installer',
  'application/vnd.android.package-archive',
  'application/java-archive',
  'application/x-java-archive',
  'application/x-sh',
  'application/x-shellscript',
  'application/x-csh',
  'application/x-bat',
  'application/x-msdos-program',
  'application/javascript',
  'application/x-javascript',
  'text/javascript',
  'application/ecmascript',
  'text/vbscript',
  'application/x-vbscript',
  'application/hta',
  'application/x-powershell',
  'application/x-python-code',
  'text/x-python',
  'text/x-shellscript',
  'application/x-apple-diskimage',
  'application/x-ms-shortcut',
]);

/** Extensions that run when opened (Windows, macOS, scripts), whatever type is declared. */
const RUNNABLE_EXTENSIONS = new Set([
  'exe',
  'com',
  'bat',
  'cmd',
  'scr',
  'pif',
  'cpl',
  'msi',
  'msp',
  'msc',
  'dll',
  'sys',
  'drv',
  'ocx',
  'jar',
  'apk',
  'app',
  'dmg',
  'pkg',
  'js',
  'jse',
  'mjs',
  'vbs',
  'vbe',
  'wsf',
  'wsh',
  'ws',
  'hta',
  'ps1',
  'psm1',
  'psd1',
  'sh',
  'bash',
  'zsh',
  'csh',
  'ksh',
  'command',
  'py',
  'pyc',
  'pl',
  'rb',
  'php',
  'lnk',
  'reg',
  'inf',
  'scf',
  'gadget',
  'application',
  'appx',
  'msix',
  'elf',
  'bin',
  'run',
  'iso',
]);

/** Types by extension, for a file sent without content_type whose content says nothing. */
const TYPE_BY_EXTENSION: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  md: 'text/markdown',
  html: 'text/html',
  htm: 'text/html',
  json: 'application/json',
  xml: 'application/xml',
  ics: 'text/calendar',
  vcf: 'text/vcard',
  svg: 'image/svg+xml',
  eml: 'message/rfc822',
};

const refused = (filename: string, reason: string): MailboxError =>
  new MailboxError('attachment_refused', { filename, reason });

// Windows drops a name's trailing dots and spaces when it saves the file: `run.bat.` is `run.bat`.
const extensionOf = (filename: string): string => {
  const name = filename.replace(/[. ]+$/, '');
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

const bareType = (type: string): string => type.toLowerCase().split(';')[0]!.trim();

/** A file name as given: refused with a path, a control character, or past 255 characters. */
export function checkFilename(filename: string): void {
  if (!filename.trim() || filename === '.' || filename === '..') throw refused(filename, 'nom de fichier vide');
  if (/[/\\]/.test(filename)) throw refused(filename, 'le nom contient un chemin (/ ou \\)');
  // C0, DEL, C1 and the bidirectional overrides that disguise an extension.
  if (/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(filename))
    throw refused(filename, 'le nom contient un caractère de contrôle');
  if ([...filename].length > FILENAME_MAX_CHARS)
    throw refused(filename, `nom de plus de ${FILENAME_MAX_CHARS} caractères`);
}

/** Refuses a file that would run when opened, by its name or its type. */
export function checkNotRunnable(filename: string, contentType: string): void {
  const extension = extensionOf(filename);
  if (RUNNABLE_EXTENSIONS.has(extension)) throw refused(filename, `type exécutable ou script (.${extension})`);
  if (RUNNABLE_TYPES.has(bareType(contentType)))
    throw refused(filename, `type exécutable ou script (${bareType(contentType)})`);
}

/** Bytes a signature-reading library reads to tell a file's type: a file's head is enough. */
export const TYPE_SIGNATURE_BYTES = 4100;

/**
 * What the content's signature says it is (undefined for text and unknown formats); refused when it
 * is a program (a Windows, Linux or macOS executable), whatever its name and declared type.
 */
export async function detectedType(filename: string, content: Uint8Array): Promise<{ mime: string } | undefined> {
  const detected = await fileTypeFromBuffer(content);
  if (detected && RUNNABLE_TYPES.has(detected.mime))
    throw refused(filename, `le contenu est un programme (${detected.mime})`);
  return detected;
}

/**
 * The type the file goes out with: the declared one, unless its content contradicts it (a PNG declared
 * as a PDF, a program declared as text); without one, what the content or the extension says.
 */
export async function settledType(filename: string, declared: string | undefined, content: Buffer): Promise<string> {
  const detected = await detectedType(filename, content);
  if (declared === undefined)
    return detected?.mime ?? TYPE_BY_EXTENSION[extensionOf(filename)] ?? 'application/octet-stream';
  const type = bareType(declared);
  if (!/^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/.test(type))
    throw refused(filename, `type « ${declared} » invalide`);
  // Content that has a recognisable signature must match the declared type; a declared type that has
  // one (PDF, PNG, ZIP...) must be found in the content. Text formats have none: nothing to compare.
  if (detected && detected.mime !== type) throw refused(filename, `déclaré ${type}, le contenu est ${detected.mime}`);
  if (!detected && supportedMimeTypes.has(type)) throw refused(filename, `déclaré ${type}, le contenu n'en est pas`);
  return type;
}

/** Strict base64 (RFC 4648, padding optional); null when it is not. */
export function decodeBase64(value: string): Buffer | null {
  const compact = value.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) return null;
  return Buffer.from(compact, 'base64');
}
