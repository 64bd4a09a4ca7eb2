/**
 * The one closed table of refusals: code -> HTTP status and French message. HTTP, MCP and SMTP
 * submission render from the same MailboxError; no status literal lives anywhere else.
 */
import type { Logger } from './log.js';
import { CAMPAIGN_STATUS_WORDS } from './texts/campaigns.js';
import { reasonText } from './texts.js';

export type Hint = Record<string, unknown>;

interface ErrorSpec {
  status: number | ((hint: Hint) => number);
  /** French sentence(s) ending with what to do next. `d` = hint plus message-only details. */
  message: (d: Details) => string;
}

type Details = Hint & { reason?: string };

const wait = (d: Details): string =>
  typeof d.retry_after_seconds === 'number' ? ` Réessayez dans ${d.retry_after_seconds} s.` : ' Réessayez plus tard.';
const why = (d: Details): string => (d.reason ? ` ${d.reason}` : '');
/** The address a recipient refusal is about (a message has several: `to`, `cc`, `bcc`), as ` : <address>`. */
const recipient = (d: Details): string => (typeof d.recipient === 'string' ? ` : ${d.recipient}` : '');
/** A campaign's status (a hint's `status`) in French words. */
const campaignState = (status: unknown): string | undefined =>
  typeof status === 'string' ? (CAMPAIGN_STATUS_WORDS[status] ?? status) : undefined;

const TABLE = {
  // Common to every tool (docs/contract.md, Decision 1).
  invalid_argument: {
    status: 400,
    message: (d) =>
      `Paramètre invalide${d.parameter ? ` « ${d.parameter} »` : ''} :${why(d) || ' valeur refusée.'} Corrigez l'appel.`,
  },
  unauthorized: {
    status: 401,
    message: (d) =>
      `Accès refusé : clé d'API absente, invalide ou révoquée.${why(d)} Présentez une clé valide dans l'en-tête Authorization: Bearer.`,
  },
  forbidden: {
    status: 403,
    message: (d) =>
      `Cette clé n'a pas le droit de faire cela.${why(d)} Utilisez une clé qui porte la permission nécessaire.`,
  },
  not_found: {
    status: 404,
    message: (d) => `${d.reason ?? "L'objet demandé n'existe pas pour cette clé."} Vérifiez l'identifiant.`,
  },
  rate_limited: { status: 429, message: (d) => `Trop de requêtes pour cette clé.${wait(d)}` },
  internal: {
    status: 500,
    message: () =>
      "Erreur interne du service. Réessayez dans un instant ; pour une écriture, vérifiez d'abord si elle a eu lieu (une clé d'idempotence rend la reprise sûre).",
  },
  service_unavailable: {
    status: 503,
    message: (d) =>
      `Le stockage du service ne répond pas. L'écriture demandée a pu avoir lieu ou non : réessayez la même requête avec la même idempotency_key, qui ne l'écrira pas deux fois.${wait(d)}`,
  },
  payload_too_large: {
    status: 413,
    message: (d) =>
      `Requête trop volumineuse${typeof d.max_bytes === 'number' ? ` (au plus ${d.max_bytes} octets)` : ''}. Réduisez le contenu.`,
  },

  // docs/contract.md, Part 7.
  space_unverified: {
    status: 403,
    message: () =>
      "L'espace n'est pas encore vérifié : ses boîtes reçoivent mais n'envoient pas. Faites confirmer l'humain de l'espace avec le code reçu par e-mail (outil verify).",
  },
  payment_required: {
    status: 402,
    message: (d) =>
      `Aucune offre en cours : ${d.reason ?? 'cette action'} demande un abonnement. Souscrivez une offre avec subscribe.`,
  },
  own_domain_required: {
    status: 422,
    message: () =>
      "Une boîte du domaine commun ne peut écrire qu'à une personne qui lui a écrit d'abord. Répondez dans son fil avec reply_to_thread, ou utilisez une boîte d'un domaine de l'espace.",
  },
  recipient_suppressed: {
    status: 422,
    message: (d) =>
      `Destinataire bloqué${recipient(d)}${d.reason ? ` (${reasonText(d.reason)})` : ''}. N'écrivez pas à cette adresse.`,
  },
  duplicate_recipient: {
    status: 409,
    message: (d) =>
      `Cette boîte a déjà écrit un premier message à ce destinataire depuis moins de 30 jours. Répondez dans le fil ${d.thread_id ?? ''} avec reply_to_thread.`,
  },
  key_daily_cap: {
    status: 429,
    message: (d) => `Plafond quotidien de cette clé atteint. Reprise à 0 h (heure de Paris).${wait(d)}`,
  },
  inbox_suspended: {
    status: 409,
    message: (d) =>
      `Boîte suspendue par le disjoncteur${d.reason ? ` : ${reasonText(d.reason)}` : ''}. Demandez une revue avec request_inbox_review.`,
  },
  domain_not_verified: {
    status: 409,
    message: () =>
      "Le domaine de cette boîte n'est pas encore vérifié. Publiez les enregistrements DNS puis appelez verify_domain.",
  },
  domain_suspended: {
    status: 409,
    message: () =>
      'Un enregistrement DNS requis du domaine a disparu : domaine suspendu. Republiez-le puis appelez verify_domain.',
  },
  unresolved_placeholder: {
    status: 422,
    message: (d) =>
      `Champ entre doubles accolades non résolu${d.placeholder ? ` : ${d.placeholder}` : ''}. Seul {{unsubscribe_url}} est accepté ; remplacez les autres.`,
  },
  idempotency_conflict: {
    status: 409,
    message: () =>
      "Cette clé d'idempotence a déjà servi pour un contenu différent. Utilisez une nouvelle clé pour un nouveau message.",
  },
  test_recipient_not_allowed: {
    status: 422,
    message: (d) =>
      `Un envoi de test ne peut viser que l'humain de l'espace ou une autre boîte de l'espace${recipient(d) ? ` (refusé${recipient(d)})` : ''}. Changez le destinataire ou retirez test.`,
  },
  queue_full: {
    status: 429,
    message: (d) =>
      `File de la boîte pleine (brouillons et messages en attente à dix fois le quota maximal).${wait(d)}`,
  },
  key_limit: {
    status: 409,
    message: (d) =>
      `L'espace a déjà ${typeof d.max === 'number' ? d.max : 'le maximum de'} clés actives. Révoquez une clé inutile avec revoke_key.`,
  },
  key_name_taken: {
    status: 409,
    message: (d) => `Une clé active porte déjà le nom « ${d.name ?? ''} ». Choisissez un autre nom.`,
  },
  space_rate_limited: {
    status: 429,
    message: (d) => `Trop de ${d.reason ?? 'créations'} en 24 heures pour cet espace.${wait(d)}`,
  },
  secret_in_message: {
    status: 422,
    message: (d) =>
      `Le texte${d.parameter ? ` « ${d.parameter} »` : ''} contient une clé d'API ou un secret du service. Retirez-le : un secret ne s'écrit jamais dans un message.`,
  },
  webhook_too_soon: { status: 429, message: (d) => `Un webhook vient d'être déclaré.${wait(d)}` },
  webhooks_unavailable: {
    status: 503,
    message: () =>
      'Les webhooks ne sont pas en service sur ce serveur. Lisez le courrier avec list_threads ou event_feed.',
  },
  encryption_unavailable: {
    status: 503,
    message: () =>
      "Le serveur n'est pas entièrement configuré (clé maîtresse absente). Prévenez l'opérateur du service.",
  },
  workspace_expired: {
    status: 404,
    message: () =>
      "Cet espace de travail a expiré ou n'est pas joignable avec cette connexion. Rouvrez-le avec open_workspace.",
  },
  workspace_capacity: {
    status: (h) => (h.memory ? 503 : 429),
    message: (d) => `Trop d'espaces de travail ouverts.${wait(d)}`,
  },
  access_changed: {
    status: 409,
    message: () => 'Les droits de cette connexion ont changé pendant la lecture. Relancez la lecture.',
  },
  workspace_busy: { status: 429, message: (d) => `Trop d'attentes en cours pour cet espace de travail.${wait(d)}` },
  reserved_username: { status: 422, message: () => "Ce nom d'utilisateur est réservé. Choisissez-en un autre." },
  domain_not_allowed: {
    status: 422,
    message: (d) =>
      `Ce domaine n'est pas utilisable ici${Array.isArray(d.allowed_domains) && d.allowed_domains.length ? ` (domaines permis : ${d.allowed_domains.join(', ')})` : ''}. ${d.reason ?? "Choisissez un domaine d'envoi de l'espace."}`,
  },
  no_sending_domain: {
    status: 409,
    message: () => "L'espace n'a aucun domaine d'envoi. Ajoutez un domaine avec add_domain.",
  },
  inbox_limit: {
    status: 409,
    message: (d) =>
      `Plafond de boîtes de l'offre atteint${typeof d.inbox_count === 'number' ? ` (${d.inbox_count} boîtes)` : ''}. Supprimez une boîte ou changez d'offre.`,
  },
  inbox_creation_limit: {
    status: 429,
    message: (d) => `Trop de boîtes créées en 7 jours (les boîtes supprimées comptent).${wait(d)}`,
  },
  address_taken: { status: 409, message: () => 'Cette adresse est déjà une boîte. Choisissez un autre nom.' },
  provisioning_failed: {
    status: 502,
    message: () => "Le serveur de courrier n'a pas pris la demande ; rien n'a changé. Réessayez dans un instant.",
  },
  not_draft: {
    status: 409,
    message: () => "Ce message n'est pas ou plus un brouillon. Annulez-le et écrivez-en un nouveau si besoin.",
  },
  domain_in_use: {
    status: 409,
    message: () => "Des boîtes de l'espace vivent encore sur ce domaine. Supprimez-les d'abord avec delete_inbox.",
  },
  own_access: { status: 409, message: () => 'Un accès ne peut pas se révoquer lui-même. Utilisez une autre clé.' },
  public_mail_domain: {
    status: 422,
    message: () =>
      'Un domaine de messagerie publique ne peut pas être enregistré. Utilisez un domaine qui vous appartient.',
  },
  domain_taken: {
    status: 409,
    message: () =>
      'Un autre espace a déjà prouvé la propriété de ce domaine. Contactez le support si le domaine est à vous.',
  },
  filter_limit: {
    status: 409,
    message: (d) =>
      `L'espace a déjà ${typeof d.max === 'number' ? d.max : 'le maximum de'} filtres. Retirez-en un inutile avec remove_filter.`,
  },
  domain_limit: { status: 409, message: () => "L'espace a déjà cinq domaines. Retirez-en un avec remove_domain." },
  domain_exists: {
    status: 409,
    message: () => 'Ce domaine est déjà enregistré pour cet espace. Vérifiez-le avec verify_domain.',
  },
  dns_unavailable: {
    status: 503,
    message: (d) => `La résolution DNS a échoué ; rien n'a été vérifié ni changé.${wait(d)}`,
  },
  space_managed: {
    status: 409,
    message: () =>
      "Cet espace a été ouvert par un administrateur du service : sa fermeture ne passe pas par les outils. Contactez l'opérateur.",
  },
  no_human: {
    status: 409,
    message: () => "Aucun humain n'est rattaché à l'espace. Rattachez-en un avec attach_human.",
  },
  no_pending_code: { status: 409, message: () => "Aucun code n'est en attente. Demandez d'abord un code." },
  invalid_code: {
    status: 422,
    message: (d) =>
      `Code erroné${typeof d.attempts_left === 'number' ? ` ; encore ${d.attempts_left} essai${d.attempts_left > 1 ? 's' : ''}` : ''}. Vérifiez le code reçu par e-mail.`,
  },
  code_expired: { status: 409, message: () => 'Ce code a expiré. Demandez-en un nouveau.' },
  too_many_attempts: {
    status: 429,
    message: () => 'Dix essais ont échoué : le code est annulé. Demandez-en un nouveau.',
  },
  code_too_soon: { status: 429, message: (d) => `Un code vient d'être envoyé.${wait(d)}` },
  code_limit: {
    status: 429,
    message: () => "Cinq codes ont déjà été envoyés pour cet espace. Contactez l'opérateur du service.",
  },
  code_not_sent: {
    status: 502,
    message: () => "L'e-mail du code n'a pas pu partir ; rien n'a changé. Réessayez dans un instant.",
  },
  billing_unavailable: {
    status: 503,
    message: () =>
      "Le paiement n'est pas en service ou le prestataire n'a pas confirmé ; rien n'a changé. Réessayez plus tard.",
  },

  // docs/contract.md, Decisions 4 and 9.
  not_cancellable: {
    status: 409,
    message: () =>
      "Ce message n'est plus un brouillon ni en file : il ne peut plus être annulé. Lisez son état avec get_message.",
  },
  revision_mismatch: {
    status: 409,
    message: (d) =>
      `Le brouillon a changé depuis votre lecture${d.revision ? ` (révision actuelle ${d.revision})` : ''}. Relisez-le puis approuvez la révision actuelle.`,
  },
  suppression_locked: {
    status: 409,
    message: () =>
      'Un désabonnement ou une plainte ne se lève pas par un outil : seule la personne peut écrire à nouveau.',
  },
  thread_loop_guard: {
    status: 429,
    message: (d) => `Trois messages sont déjà partis dans ce fil en 24 h sans réponse du correspondant.${wait(d)}`,
  },

  // docs/contract.md, Decisions 10 and 14.
  attachment_refused: {
    status: 422,
    message: (d) =>
      `Pièce jointe refusée${d.filename ? ` « ${d.filename} »` : ''}${d.reason ? ` : ${d.reason}` : ''}. Retirez ou corrigez ce fichier.`,
  },
  recipient_not_allowed: {
    status: 422,
    message: (d) =>
      `Un filtre d'envoi${d.filter_id ? ` (${d.filter_id})` : ''} ne permet pas d'écrire à ce destinataire${recipient(d)}. Changez de destinataire ou modifiez les filtres avec list_filters et remove_filter.`,
  },

  // docs/contract.md, Decision 11.
  audience_in_use: {
    status: 409,
    message: (d) =>
      `Une campagne en cours ou en pause utilise cette audience${d.campaign_id ? ` (${d.campaign_id})` : ''}. Attendez sa fin ou mettez-la en pause puis laissez-la finir.`,
  },
  campaign_not_startable: {
    status: 409,
    message: (d) =>
      `Cette campagne est ${campaignState(d.status) ?? 'terminée'} : elle ne se lance plus. Créez-en une nouvelle avec create_campaign.`,
  },
  campaign_not_running: {
    status: 409,
    message: (d) =>
      `Cette campagne n'est pas en cours (${campaignState(d.status) ?? 'état inconnu'}) : rien à mettre en pause. Lisez son état avec campaign_status.`,
  },

  // Ours (docs/errors.md): request_inbox_review and the operator's resume-inbox on an inbox that is not suspended.
  inbox_not_suspended: {
    status: 409,
    message: () => "Cette boîte n'est pas suspendue : elle envoie normalement. Rien à demander.",
  },

  // Ours (docs/errors.md): the pages and OAuth endpoints reached without a key, and the human's sign-in codes.
  anonymous_rate_limited: {
    status: 429,
    message: (d) =>
      `${d.scope === 'service' ? 'Le service reçoit trop de demandes de ce type en ce moment' : 'Trop de demandes depuis votre adresse réseau'}.${wait(d)}`,
  },
  signin_code_limit: {
    status: 429,
    message: (d) => `Trop de codes de connexion ont été demandés pour cette adresse e-mail.${wait(d)}`,
  },

  // Ours (docs/errors.md): the limits of a space's contacts and realtime sockets (docs/operations.md).
  contact_limit: {
    status: 409,
    message: (d) =>
      `L'espace tient déjà ${typeof d.contacts === 'number' ? d.contacts : 'le maximum de'} contacts${typeof d.max === 'number' ? ` (au plus ${d.max})` : ''} : cet ajout le dépasserait, rien n'a été ajouté. Ajoutez moins d'adresses nouvelles, ou des contacts que l'espace connaît déjà.`,
  },
  socket_limit: {
    status: 429,
    message: (d) =>
      `Trop de sockets temps réel ouverts ${d.scope === 'space' ? 'pour cet espace' : 'pour cette clé'}${typeof d.max === 'number' ? ` (au plus ${d.max})` : ''}. Fermez-en un avant d'en ouvrir un autre, ou suivez les événements avec event_feed.`,
  },
} satisfies Record<string, ErrorSpec>;

export type ErrorCode = keyof typeof TABLE;
export const ERROR_CODES = Object.keys(TABLE) as ErrorCode[];

export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && code in TABLE;

export interface ErrorBody {
  error: { code: ErrorCode; message: string; hint: Hint | null };
}

export class MailboxError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly hint: Hint | null = null,
    readonly details: { reason?: string } = {},
  ) {
    const spec: ErrorSpec = TABLE[code];
    const message = spec.message({ ...(hint ?? {}), ...details });
    super(message);
    this.status = typeof spec.status === 'function' ? spec.status(hint ?? {}) : spec.status;
  }

  get retryAfterSeconds(): number | undefined {
    const value = this.hint?.retry_after_seconds;
    return typeof value === 'number' ? value : undefined;
  }

  toBody(): ErrorBody {
    return { error: { code: this.code, message: this.message, hint: this.hint } };
  }
}

/**
 * Logs a refusal answered with a 5xx status, so an operator sees every one (a Redis failover among
 * them): `internal` with the failure's stack, the others with their code. 4xx refusals are the
 * caller's business and are not logged. `fields` names the request (request_id, tool).
 */
export function logServerError(
  log: Logger,
  refusal: MailboxError,
  error: unknown,
  fields: Record<string, unknown>,
): void {
  if (refusal.status < 500) return;
  if (refusal.code === 'internal')
    log.error('request failed', {
      ...fields,
      status: refusal.status,
      code: refusal.code,
      error: String((error as Error)?.stack ?? error),
    });
  else
    log.warn('request refused for a server-side cause', {
      ...fields,
      status: refusal.status,
      code: refusal.code,
      error: (error as Error)?.message ?? String(error),
    });
}

/** What a client waits before retrying when Redis is away (the offline-queue bound is about 1 s, at most about 4 s when Redis does not answer at all: src/redis/connect.ts). */
export const STORAGE_RETRY_AFTER_SECONDS = 2;

/**
 * The failures of ioredis that mean "Redis is not reachable right now", not "this command is wrong":
 * the per-request retry cap, a closed or unwritable connection, a command timeout, a Cluster that is
 * down, failing over or still loading. Matched by name and message: the core imports no client library.
 */
const STORAGE_DOWN_NAMES = new Set(['MaxRetriesPerRequestError', 'ClusterAllFailedError']);
const STORAGE_DOWN_MESSAGE =
  /^(Connection is closed\.|Command timed out|Stream isn't writeable|Cluster isn't ready|Too many Cluster redirections|CLUSTERDOWN|TRYAGAIN|MASTERDOWN|LOADING|READONLY|connect ETIMEDOUT|connect ECONNREFUSED|read ECONNRESET|write EPIPE)/;

const isStorageUnavailable = (error: unknown): boolean =>
  error instanceof Error && (STORAGE_DOWN_NAMES.has(error.name) || STORAGE_DOWN_MESSAGE.test(error.message));

/**
 * Anything thrown that is not a MailboxError becomes `internal` (the cause is logged, never shown),
 * except Redis being unreachable: `service_unavailable`, so the client retries with its idempotency_key.
 */
export const asMailboxError = (error: unknown): MailboxError => {
  if (error instanceof MailboxError) return error;
  if (isStorageUnavailable(error))
    return new MailboxError('service_unavailable', { retry_after_seconds: STORAGE_RETRY_AFTER_SECONDS });
  return new MailboxError('internal');
};

/**
 * French as US-ASCII, what SMTP reply lines are (RFC 5321 2.4; clients read other bytes as Latin-1):
 * accents dropped, guillemets as straight quotes.
 */
const asciiFrench = (text: string): string =>
  text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/«\s*|\s*»|[“”]/g, '"')
    .replace(/[‘’]/g, "'")
    .replace(/œ/g, 'oe')
    .replace(/Œ/g, 'OE')
    .replace(/\s+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?');

/**
 * A refusal as SMTP submission answers it (docs/operations.md, "SMTP submission"): 4xx where waiting
 * helps (429, 503: the client retries), 5xx for everything else (the client gives up and reports);
 * the enhanced code names the kind of problem, the text carries the code and the French message (in ASCII).
 */
export function smtpRefusal(error: MailboxError): { code: number; text: string } {
  const [code, enhanced]: [number, string] =
    error.status === 429
      ? [451, '4.7.1']
      : error.status === 503
        ? [451, '4.3.0']
        : error.status === 401
          ? [535, '5.7.8']
          : error.status === 413
            ? [552, '5.3.4']
            : error.status === 400
              ? [554, '5.6.0']
              : [550, '5.7.1'];
  return { code, text: `${enhanced} ${error.code}: ${asciiFrench(error.message)}` };
}

export const statusOf = (code: ErrorCode, hint: Hint = {}): number => {
  const spec: ErrorSpec = TABLE[code];
  return typeof spec.status === 'function' ? spec.status(hint) : spec.status;
};
