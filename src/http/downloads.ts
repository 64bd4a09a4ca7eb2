/**
 * `GET /a/<token>`: an attachment's bytes behind the signed link get_attachment gives (src/blobs/links.ts).
 * Always a download (Content-Disposition: attachment), never rendered: HTML and scripts are served as
 * application/octet-stream, nothing is sniffed, and a sandbox CSP covers a browser that would try.
 * Like the unsubscribe pages, its own small runner: the URL holds a capability the API's log would write.
 * The bytes are streamed from the blob store to the client (src/http/io.ts sendStream), never whole in memory.
 */
import { linkedAttachment } from '../../actors/attachments.js';
import { verifyDownloadToken } from '../blobs/links.js';
import { isActive, mediaType } from '../mail/media-type.js';
import { asMailboxError, MailboxError } from '../errors.js';
import type { Runtime } from '../runtime.js';
import { errorReply, readBody, readRequest, send, sendStream, type StreamReply } from './io.js';
import type { HttpRequest, HttpResponse, TemplatedApp } from './uws.js';

/**
 * The type a file is served as. A received file's type is its sender's choice: parsed as a browser parses
 * it (src/mail/media-type.ts), one a browser could render as a page or run (HTML, XML, XSL, scripts, in
 * any spelling) or one that does not parse as a single type (`text/plain, text/html`) is served as bytes;
 * any other as the parser reads it back, never as declared.
 */
function servedType(declared: string): string {
  const type = mediaType(declared);
  return !type || isActive(type) ? 'application/octet-stream' : type.toString();
}

/** `filename*` of RFC 6266 (any character), with a plain ASCII fallback. */
function disposition(filename: string | null): string {
  const name = filename ?? 'piece-jointe';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

async function download(rt: Runtime, token: string): Promise<StreamReply> {
  const target = rt.config.masterKey ? verifyDownloadToken(rt.config.masterKey, token, rt.clock.now()) : null;
  if (!target)
    throw new MailboxError('not_found', null, {
      reason:
        'Ce lien de téléchargement est inconnu ou expiré (15 minutes) : demandez-en un autre avec get_attachment.',
    });
  const { attachment, content } = await linkedAttachment(rt, target);
  return {
    status: 200,
    ...content,
    headers: {
      'content-type': servedType(attachment.content_type),
      'content-disposition': disposition(attachment.filename),
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; sandbox",
      'cache-control': 'private, no-store',
      'referrer-policy': 'no-referrer',
    },
  };
}

export function registerDownloads(app: TemplatedApp, rt: Runtime): void {
  app.get('/a/:token', (res: HttpResponse, req: HttpRequest) => {
    const token = req.getParameter(0) ?? '';
    const request = readRequest(res, req);
    readBody(res, 0)
      .then(() => download(rt, token))
      .then(
        (reply) =>
          sendStream(res, request, reply, (error) =>
            rt.log.error('attachment download broke off', { error: String(error.stack ?? error) }),
          ),
        (error: unknown) => {
          const refusal = asMailboxError(error);
          if (refusal.code === 'internal')
            rt.log.error('attachment download failed', { error: String((error as Error)?.stack ?? error) });
          send(res, request, errorReply(refusal));
        },
      );
  });
}
