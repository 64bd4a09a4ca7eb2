# Generated from GET /v1/openapi.json by `npm run client:generate` (clients/python/generate.ts): do not edit.

"""The tools' bodies and answers as TypedDicts: `<Tool>Input`, `<Tool>Output` and the objects inside them."""

from typing import Any, Dict, List, Literal, Optional, TypedDict, Union

#: Every error code of the service (docs/errors.md).
ErrorCode = Literal[
    "invalid_argument",
    "unauthorized",
    "forbidden",
    "not_found",
    "rate_limited",
    "internal",
    "service_unavailable",
    "payload_too_large",
    "space_unverified",
    "payment_required",
    "own_domain_required",
    "recipient_suppressed",
    "duplicate_recipient",
    "key_daily_cap",
    "inbox_suspended",
    "domain_not_verified",
    "domain_suspended",
    "unresolved_placeholder",
    "idempotency_conflict",
    "test_recipient_not_allowed",
    "queue_full",
    "key_limit",
    "key_name_taken",
    "space_rate_limited",
    "secret_in_message",
    "webhook_too_soon",
    "webhooks_unavailable",
    "encryption_unavailable",
    "workspace_expired",
    "workspace_capacity",
    "access_changed",
    "workspace_busy",
    "reserved_username",
    "domain_not_allowed",
    "no_sending_domain",
    "inbox_limit",
    "inbox_creation_limit",
    "address_taken",
    "provisioning_failed",
    "not_draft",
    "domain_in_use",
    "own_access",
    "public_mail_domain",
    "domain_taken",
    "filter_limit",
    "domain_limit",
    "domain_exists",
    "dns_unavailable",
    "space_managed",
    "no_human",
    "no_pending_code",
    "invalid_code",
    "code_expired",
    "too_many_attempts",
    "code_too_soon",
    "code_limit",
    "code_not_sent",
    "billing_unavailable",
    "not_cancellable",
    "revision_mismatch",
    "suppression_locked",
    "thread_loop_guard",
    "attachment_refused",
    "recipient_not_allowed",
    "audience_in_use",
    "campaign_not_startable",
    "campaign_not_running",
    "inbox_not_suspended",
    "anonymous_rate_limited",
    "signin_code_limit",
    "contact_limit",
    "socket_limit",
]


class _CreateKeyInputRequired(TypedDict):
    #: au plus 60 caractères, unique parmi les clés actives
    name: str


class CreateKeyInput(_CreateKeyInputRequired, total=False):
    #: absent : send et read
    permissions: List[Literal["send", "read", "approve", "manage_inboxes"]]
    #: les seules boîtes ouvertes à la clé ; absent : toutes
    inbox_ids: List[str]
    #: messages créés par jour, 1 à 10000
    daily_cap: int


class _CreateKeyOutputKeyRequired(TypedDict):
    #: identifiant key_...
    id: str
    kind: Literal["key", "connection"]
    name: str
    permissions: List[Literal["send", "read", "approve", "manage_inboxes"]]
    inbox_ids: Optional[List[str]]
    daily_cap: Optional[int]
    #: date ISO 8601 (UTC)
    created_at: str
    last_used_at: Optional[str]
    created_by: Optional[str]
    #: les 12 premiers caractères du secret
    prefix: str


class CreateKeyOutputKey(_CreateKeyOutputKeyRequired, total=False):
    #: connexion : l'identifiant du client OAuth
    client_id: str
    #: connexion : l'hôte où le client reçoit l'autorisation
    redirect_host: str


class CreateKeyOutput(TypedDict):
    #: le secret, montré cette seule fois
    api_key: str
    key: CreateKeyOutputKey
    mcp_url: str
    notice: Optional[str]


class ListKeysInput(TypedDict):
    pass


class ListKeysOutput(TypedDict):
    keys: List[CreateKeyOutputKey]


class RevokeKeyInput(TypedDict):
    #: identifiant key_...
    key_id: str
    #: doit valoir true : action irréversible
    confirm: Literal[True]


class RevokeKeyOutput(TypedDict):
    kind: Literal["key", "connection"]
    name: str
    #: identifiant key_...
    revoked: str


GetSettingsInput = ListKeysInput


class GetSettingsOutputSpace(TypedDict):
    #: identifiant spc_...
    id: str
    name: str
    verified: bool
    human_email: Optional[str]
    plan: str
    #: l'espace impose la validation humaine de chaque envoi
    approval_required: bool
    send_window: str
    common_domain: str
    #: ouvert par un administrateur : close_space ne le ferme pas (space_managed)
    managed: bool
    closes_at: Optional[str]


class GetSettingsOutputKey(TypedDict):
    #: human : l'humain de l'espace connecté par code (pages du service)
    id: Union[Literal["human"], str]
    name: str
    kind: Literal["key", "connection"]
    permissions: List[Literal["send", "read", "approve", "manage_inboxes"]]
    inbox_ids: Optional[List[str]]
    daily_cap: Optional[int]
    sent_today: int


class GetSettingsOutputLimits(TypedDict):
    active_keys: int
    key_name_chars: int
    daily_cap_max: int
    keys_created_per_24h: int
    webhooks_declared_per_24h: int
    list_events_max: int
    #: contacts qu'un espace peut tenir
    contacts_per_space: int


class GetSettingsOutputFiltersSpaceWide(TypedDict):
    #: allow en réception : s'il y en a, seuls les expéditeurs authentifiés autorisés passent
    receive_allow: int
    receive_block: int
    #: allow en envoi : s'il y en a, seuls les destinataires autorisés sont permis
    send_allow: int
    send_block: int


class GetSettingsOutputFilters(TypedDict):
    space_wide: GetSettingsOutputFiltersSpaceWide
    #: filtres de l'espace que cette clé voit (ceux de ses boîtes et ceux de tout l'espace)
    total: int
    #: filtres au plus par espace
    max: int


class GetSettingsOutputWebhook(TypedDict):
    url: str
    #: date ISO 8601 (UTC)
    declared_at: str
    #: essais manqués de l'événement le plus ancien pas encore remis ; 0 : tout est remis
    failed_attempts: int
    next_attempt_at: Optional[str]
    last_error: Optional[str]


class GetSettingsOutput(TypedDict):
    space: GetSettingsOutputSpace
    key: GetSettingsOutputKey
    limits: GetSettingsOutputLimits
    filters: GetSettingsOutputFilters
    webhook: Optional[GetSettingsOutputWebhook]
    mcp_url: str
    notice: Optional[str]


class ListEventsInput(TypedDict, total=False):
    #: jour de Paris, AAAA-MM-JJ
    day: str
    #: identifiant inb_...
    inbox_id: str
    #: identifiant thr_...
    thread_id: str
    #: identifiant msg_...
    message_id: str
    #: identifiant cmp_...
    campaign_id: str
    #: identifiant aud_...
    audience_id: str
    #: une adresse
    contact: str
    domain: str
    #: next_cursor de l'appel précédent
    cursor: str
    #: 1 à 200, 50 par défaut
    limit: int


class ListEventsOutputEventActor(TypedDict):
    kind: Literal["agent", "human", "service"]
    name: str
    #: vrai quand la clé qui lit est l'auteur
    you: bool


class _ListEventsOutputEventRequired(TypedDict):
    id: str
    #: date ISO 8601 (UTC)
    at: str
    kind: str
    #: groupe nominal en français, sans sujet
    text: str
    actor: ListEventsOutputEventActor


class ListEventsOutputEvent(_ListEventsOutputEventRequired, total=False):
    #: identifiant inb_...
    inbox_id: str
    #: identifiant thr_...
    thread_id: str
    #: identifiant msg_...
    message_id: str
    #: identifiant cmp_...
    campaign_id: str
    #: identifiant aud_...
    audience_id: str
    contact: str
    domain: str


class ListEventsOutput(TypedDict):
    day: Optional[str]
    events: List[ListEventsOutputEvent]
    next_cursor: Optional[str]
    notice: Optional[str]


class _CreateInboxInputRequired(TypedDict):
    #: partie avant @ : minuscules, chiffres, « . », « _ », « - »
    username: str
    #: nom affiché dans l'expéditeur, au plus 100 caractères
    display_name: str


class CreateInboxInput(_CreateInboxInputRequired, total=False):
    #: nom de domaine, par exemple envoi.exemple.fr
    domain: str


class CreateInboxOutputQuota(TypedDict):
    #: quota du jour (palier de montée en charge)
    daily_quota: int
    #: quota maximal de l'offre
    daily_max: int
    sent_today: int
    remaining_today: int


class CreateInboxOutputSuspension(TypedDict):
    review: Literal["none", "requested"]
    requested_at: Optional[str]


class CreateInboxOutputWarmup(TypedDict):
    week: int
    #: quota quotidien du palier en cours
    step: int
    steps: List[int]
    finished: bool


class CreateInboxOutput(TypedDict):
    #: identifiant inb_...
    id: str
    address: str
    display_name: str
    #: brouillons à valider
    drafts: int
    #: messages en file
    queued: int
    next_send_at: Optional[str]
    quota: CreateInboxOutputQuota
    #: fenêtre d'envoi en toutes lettres
    send_window: str
    #: boîte du domaine commun
    shared: bool
    status: Literal["active", "suspended", "deleted"]
    status_changed_at: Optional[str]
    status_reason: Optional[str]
    suspension: Optional[CreateInboxOutputSuspension]
    warmup: CreateInboxOutputWarmup
    notice: Optional[str]


class ListInboxesInput(TypedDict, total=False):
    #: next_cursor de l'appel précédent
    cursor: str
    #: 1 à 100, 20 par défaut
    limit: int


class ListInboxesOutputItem(TypedDict):
    #: identifiant inb_...
    id: str
    address: str
    display_name: str
    #: brouillons à valider
    drafts: int
    #: messages en file
    queued: int
    next_send_at: Optional[str]
    quota: CreateInboxOutputQuota
    #: fenêtre d'envoi en toutes lettres
    send_window: str
    #: boîte du domaine commun
    shared: bool
    status: Literal["active", "suspended", "deleted"]
    status_changed_at: Optional[str]
    status_reason: Optional[str]
    suspension: Optional[CreateInboxOutputSuspension]
    warmup: CreateInboxOutputWarmup


class ListInboxesOutput(TypedDict):
    items: List[ListInboxesOutputItem]
    next_cursor: Optional[str]
    notice: Optional[str]


class InboxStatusInput(TypedDict):
    #: identifiant inb_...
    inbox_id: str


class InboxStatusOutputCounts(TypedDict):
    #: messages partis sur 7 jours
    sent_7d: int
    #: rebonds définitifs sur 7 jours
    bounced_7d: int
    #: plaintes sur 7 jours
    complaints_7d: int


class InboxStatusOutputCircuitBreaker(TypedDict):
    window_days: int
    #: envois minimum avant que le disjoncteur juge
    min_sent: int
    bounce_rate: float
    complaint_rate: float
    bounce_rate_limit: float
    complaint_rate_limit: float
    complaint_count_limit: int


class InboxStatusOutput(TypedDict):
    inbox: ListInboxesOutputItem
    counts: InboxStatusOutputCounts
    circuit_breaker: InboxStatusOutputCircuitBreaker
    filters: GetSettingsOutputFiltersSpaceWide
    notice: Optional[str]


class DeleteInboxInput(TypedDict):
    #: identifiant inb_...
    inbox_id: str
    #: doit valoir true : action irréversible
    confirm: Literal[True]


class DeleteInboxOutput(TypedDict):
    #: brouillons et messages en file annulés
    cancelled_messages: int
    #: identifiant inb_...
    deleted: str
    #: compte de messagerie retiré du serveur de courrier
    remote_account_removed: bool


class _RequestInboxReviewInputRequired(TypedDict):
    #: identifiant inb_...
    inbox_id: str


class RequestInboxReviewInput(_RequestInboxReviewInputRequired, total=False):
    #: pour l'administrateur, au plus 1000 caractères
    message: str


RequestInboxReviewOutput = CreateInboxOutput


class AddDomainInput(TypedDict):
    #: nom de domaine, par exemple envoi.exemple.fr
    domain: str


class AddDomainOutputRecord(TypedDict):
    label: str
    #: nom DNS complet
    name: str
    note: str
    required: bool
    role: Literal["ownership", "dkim", "spf", "mx", "dmarc"]
    seen: Optional[str]
    state: Literal["found", "absent", "different"]
    type: Literal["TXT", "MX"]
    #: valeur à publier
    value: str


class AddDomainOutput(TypedDict):
    #: identifiant dom_...
    id: str
    domain: str
    status: Literal["pending", "verified", "suspended"]
    status_reason: Optional[str]
    verified_at: Optional[str]
    last_checked_at: Optional[str]
    records: List[AddDomainOutputRecord]
    notice: Optional[str]


VerifyDomainInput = AddDomainInput


VerifyDomainOutput = AddDomainOutput


ListDomainsInput = ListKeysInput


class ListDomainsOutputDomain(TypedDict):
    #: identifiant dom_...
    id: str
    domain: str
    status: Literal["pending", "verified", "suspended"]
    status_reason: Optional[str]
    verified_at: Optional[str]
    last_checked_at: Optional[str]
    records: List[AddDomainOutputRecord]


class ListDomainsOutput(TypedDict):
    domains: List[ListDomainsOutputDomain]
    notice: Optional[str]


class RemoveDomainInput(TypedDict):
    #: nom de domaine, par exemple envoi.exemple.fr
    domain: str
    #: doit valoir true : action irréversible
    confirm: Literal[True]


class RemoveDomainOutput(TypedDict):
    #: retiré du serveur de courrier (faux s'il n'y était jamais arrivé : propriété jamais prouvée)
    remote_domain_removed: bool
    #: le domaine retiré
    removed: str
    notice: Optional[str]


class _SendEmailInputAttachment1Required(TypedDict):
    #: nom du fichier, sans chemin
    filename: str
    #: contenu en base64
    content_base64: str


class SendEmailInputAttachment1(_SendEmailInputAttachment1Required, total=False):
    #: type MIME ; vérifié contre le contenu ; absent : déduit
    content_type: str


class SendEmailInputAttachment2(TypedDict):
    #: pièce jointe reçue dans l'espace (att_...), pour la transférer
    attachment_id: str


class _SendEmailInputRequired(TypedDict):
    #: identifiant inb_...
    inbox_id: str
    #: destinataire : « adresse » ou « Nom <adresse> » (le nom remplit to_name)
    to: str
    #: une ligne, au plus 300 caractères
    subject: str
    #: texte brut ; seul {{unsubscribe_url}} est permis entre doubles accolades
    text: str


class SendEmailInput(_SendEmailInputRequired, total=False):
    #: nom du destinataire ; donné aussi dans to, il doit être le même
    to_name: str
    reply_to: str
    #: envoi de test à soi seulement : l'humain de l'espace ou une autre boîte de l'espace
    test: bool
    #: copies visibles (en-tête Cc) ; chaque adresse passe les mêmes règles que le destinataire : «
    #: adresse » ou « Nom <adresse> », au plus 10
    cc: List[str]
    #: copies cachées : jamais dans un en-tête ni montrées aux autres destinataires : « adresse » ou
    #: « Nom <adresse> », au plus 10
    bcc: List[str]
    #: version HTML, même contenu que text
    html: str
    #: données libres, au plus 8000 caractères, rendues telles quelles
    metadata: Dict[str, Any]
    requires_approval: bool
    #: pas avant cette date (ISO 8601, ou heure de Paris sans fuseau)
    send_after: str
    idempotency_key: str
    #: tout vérifier, ne rien écrire
    dry_run: bool
    #: au plus 10 fichiers, 10 Mo décodés au total par défaut ; exécutables et scripts refusés
    attachments: List[Union[SendEmailInputAttachment1, SendEmailInputAttachment2]]


class SendEmailOutputMessageCcItem(TypedDict):
    address: str
    name: Optional[str]


class SendEmailOutputMessageAttachment(TypedDict):
    #: identifiant att_...
    id: str
    filename: Optional[str]
    content_type: str
    #: octets
    size: int
    #: partie affichée dans le corps (une image citée par cid:)
    inline: bool
    content_id: Optional[str]
    #: empreinte SHA-256 du contenu, en hexadécimal
    sha256: str


class SendEmailOutputMessageWrittenBy(TypedDict):
    """qui a écrit un message sortant ; null pour un message reçu"""
    #: l'accès qui l'a écrit (key_...), ou human : l'humain de l'espace
    key_id: str
    name: Optional[str]


_SendEmailOutputMessageRequired = TypedDict(
    "_SendEmailOutputMessageRequired",
    {
        #: identifiant msg_...
        "id": str,
        #: identifiant thr_...
        "thread_id": str,
        #: identifiant inb_...
        "inbox_id": str,
        "direction": Literal["outbound", "inbound"],
        "from": str,
        "to": str,
        #: les copies visibles (en-tête Cc) ; d'un message reçu, son en-tête Cc
        "cc": List[SendEmailOutputMessageCcItem],
        #: les copies cachées d'un message envoyé : montrées à l'espace seulement, jamais dans un
        #: en-tête
        "bcc": List[SendEmailOutputMessageCcItem],
        "reply_to": Optional[str],
        "subject": str,
        "text": str,
        "has_html": bool,
        "auto_reply": bool,
        "status": Literal["draft", "queued", "sending", "sent", "delivered", "bounced", "failed", "rejected", "cancelled", "received"],
        "status_code": Optional[str],
        "revision": str,
        #: date ISO 8601 (UTC)
        "created_at": str,
        "sent_at": Optional[str],
        "received_at": Optional[str],
        "metadata": Optional[Dict[str, Any]],
        "attachments": List[SendEmailOutputMessageAttachment],
        "in_reply_to_id": Optional[str],
        "written_by": Optional[SendEmailOutputMessageWrittenBy],
        "campaign_id": Optional[str],
    },
)

_SendEmailOutputMessageOptional = TypedDict(
    "_SendEmailOutputMessageOptional",
    {
        #: pourquoi le texte n'a pas pu être lu : depth_limit (HTML trop imbriqué), time_limit
        #: (lecture trop longue), memory_limit (trop de mémoire), unreadable (illisible)
        "text_unavailable": Literal["depth_limit", "time_limit", "memory_limit", "unreadable"],
        "truncated": bool,
        "reply_text": str,
    },
    total=False,
)


class SendEmailOutputMessage(_SendEmailOutputMessageRequired, _SendEmailOutputMessageOptional):
    pass


class SendEmailOutputThread(TypedDict):
    #: identifiant thr_...
    id: str
    #: identifiant inb_...
    inbox_id: str
    subject: str
    contact: Optional[str]
    contact_name: Optional[str]
    #: le début du dernier message du fil, sans citation ni signature (100 caractères au plus)
    snippet: str
    labels: List[str]
    archived: bool
    unread: bool
    message_count: int
    #: date ISO 8601 (UTC)
    last_message_at: str
    last_direction: Literal["inbound", "outbound"]
    campaign_id: Optional[str]
    #: date ISO 8601 (UTC)
    created_at: str


class SendEmailOutput(TypedDict):
    #: queued : part seul ; draft : attend un humain
    status: Literal["queued", "draft"]
    estimated_send_at: Optional[str]
    #: vrai quand la même clé d'idempotence et le même contenu ont rendu le message existant
    replayed: bool
    dry_run: bool
    message: Optional[SendEmailOutputMessage]
    thread: Optional[SendEmailOutputThread]
    inbox: ListInboxesOutputItem
    notice: Optional[str]


class _ReplyToThreadInputRequired(TypedDict):
    #: identifiant thr_...
    thread_id: str
    #: texte brut ; seul {{unsubscribe_url}} est permis entre doubles accolades
    text: str


class ReplyToThreadInput(_ReplyToThreadInputRequired, total=False):
    #: vrai : en copie aussi les autres personnes du message auquel on répond (hors boîtes de
    #: l'espace)
    reply_all: bool
    #: copies visibles (en-tête Cc) ; chaque adresse passe les mêmes règles que le destinataire : «
    #: adresse » ou « Nom <adresse> », au plus 10
    cc: List[str]
    #: copies cachées : jamais dans un en-tête ni montrées aux autres destinataires : « adresse » ou
    #: « Nom <adresse> », au plus 10
    bcc: List[str]
    #: version HTML, même contenu que text
    html: str
    #: données libres, au plus 8000 caractères, rendues telles quelles
    metadata: Dict[str, Any]
    requires_approval: bool
    #: pas avant cette date (ISO 8601, ou heure de Paris sans fuseau)
    send_after: str
    idempotency_key: str
    #: tout vérifier, ne rien écrire
    dry_run: bool
    #: au plus 10 fichiers, 10 Mo décodés au total par défaut ; exécutables et scripts refusés
    attachments: List[Union[SendEmailInputAttachment1, SendEmailInputAttachment2]]


ReplyToThreadOutput = SendEmailOutput


class GetMessageInput(TypedDict):
    #: identifiant msg_...
    message_id: str


class GetMessageOutputHeaders(TypedDict):
    #: en-tête Message-ID, chevrons compris
    message_id: str
    in_reply_to: Optional[str]
    references: List[str]
    authentication: Optional[Dict[str, Any]]


_GetMessageOutputRequired = TypedDict(
    "_GetMessageOutputRequired",
    {
        #: identifiant msg_...
        "id": str,
        #: identifiant thr_...
        "thread_id": str,
        #: identifiant inb_...
        "inbox_id": str,
        "direction": Literal["outbound", "inbound"],
        "from": str,
        "to": str,
        #: les copies visibles (en-tête Cc) ; d'un message reçu, son en-tête Cc
        "cc": List[SendEmailOutputMessageCcItem],
        #: les copies cachées d'un message envoyé : montrées à l'espace seulement, jamais dans un
        #: en-tête
        "bcc": List[SendEmailOutputMessageCcItem],
        "reply_to": Optional[str],
        "subject": str,
        "text": str,
        "has_html": bool,
        "auto_reply": bool,
        "status": Literal["draft", "queued", "sending", "sent", "delivered", "bounced", "failed", "rejected", "cancelled", "received"],
        "status_code": Optional[str],
        "revision": str,
        #: date ISO 8601 (UTC)
        "created_at": str,
        "sent_at": Optional[str],
        "received_at": Optional[str],
        "metadata": Optional[Dict[str, Any]],
        "attachments": List[SendEmailOutputMessageAttachment],
        "in_reply_to_id": Optional[str],
        "written_by": Optional[SendEmailOutputMessageWrittenBy],
        "campaign_id": Optional[str],
        "html": Optional[str],
        "to_name": Optional[str],
        "send_after": Optional[str],
        "estimated_send_at": Optional[str],
        "headers": GetMessageOutputHeaders,
        "notice": Optional[str],
    },
)

_GetMessageOutputOptional = TypedDict(
    "_GetMessageOutputOptional",
    {
        #: pourquoi le texte n'a pas pu être lu : depth_limit (HTML trop imbriqué), time_limit
        #: (lecture trop longue), memory_limit (trop de mémoire), unreadable (illisible)
        "text_unavailable": Literal["depth_limit", "time_limit", "memory_limit", "unreadable"],
        "truncated": bool,
        "reply_text": str,
    },
    total=False,
)


class GetMessageOutput(_GetMessageOutputRequired, _GetMessageOutputOptional):
    pass


class GetAttachmentInput(TypedDict):
    #: identifiant msg_...
    message_id: str
    #: identifiant att_...
    attachment_id: str


class GetAttachmentOutput(TypedDict):
    #: identifiant att_...
    id: str
    filename: Optional[str]
    content_type: str
    #: octets
    size: int
    #: partie affichée dans le corps (une image citée par cid:)
    inline: bool
    content_id: Optional[str]
    #: empreinte SHA-256 du contenu, en hexadécimal
    sha256: str
    #: identifiant msg_...
    message_id: str
    #: lien signé, valable 15 minutes, servi en téléchargement (Content-Disposition: attachment)
    download_url: str
    #: date ISO 8601 (UTC)
    download_expires_at: str
    text: Optional[str]
    text_unavailable: Optional[Literal["depth_limit", "time_limit", "memory_limit", "unreadable"]]
    notice: Optional[str]


CancelMessageInput = GetMessageInput


CancelMessageOutput = SendEmailOutputMessage


class ApproveMessageInput(TypedDict):
    #: identifiant msg_...
    message_id: str
    #: la révision du brouillon lue avant de valider
    revision: str


class ApproveMessageOutput(TypedDict):
    message: SendEmailOutputMessage
    #: date ISO 8601 (UTC)
    estimated_send_at: str
    inbox: ListInboxesOutputItem
    notice: Optional[str]


class ListDraftsInput(TypedDict, total=False):
    #: identifiant inb_...
    inbox_id: str
    #: next_cursor de l'appel précédent
    cursor: str
    #: 1 à 100, 20 par défaut
    limit: int


class ListDraftsOutputKey(TypedDict):
    name: str
    permissions: List[Literal["send", "read", "approve", "manage_inboxes"]]


class ListDraftsOutput(TypedDict):
    items: List[SendEmailOutputMessage]
    key: ListDraftsOutputKey
    next_cursor: Optional[str]
    notice: Optional[str]


class _UpdateDraftInputRequired(TypedDict):
    #: identifiant msg_...
    message_id: str


class UpdateDraftInput(_UpdateDraftInputRequired, total=False):
    #: une ligne, au plus 300 caractères
    subject: str
    #: nouveau texte ; seul {{unsubscribe_url}} est permis entre doubles accolades
    text: str
    #: nouvelle version HTML ; vide : la retire
    html: str
    #: nouvelle liste des fichiers, qui remplace la précédente ; [] les retire tous
    attachments: List[Union[SendEmailInputAttachment1, SendEmailInputAttachment2]]
    #: copies visibles (en-tête Cc) ; chaque adresse passe les mêmes règles que le destinataire : «
    #: adresse » ou « Nom <adresse> », au plus 10
    cc: List[str]
    #: copies cachées : jamais dans un en-tête ni montrées aux autres destinataires : « adresse » ou
    #: « Nom <adresse> », au plus 10
    bcc: List[str]


_UpdateDraftOutputRequired = TypedDict(
    "_UpdateDraftOutputRequired",
    {
        #: identifiant msg_...
        "id": str,
        #: identifiant thr_...
        "thread_id": str,
        #: identifiant inb_...
        "inbox_id": str,
        "direction": Literal["outbound", "inbound"],
        "from": str,
        "to": str,
        #: les copies visibles (en-tête Cc) ; d'un message reçu, son en-tête Cc
        "cc": List[SendEmailOutputMessageCcItem],
        #: les copies cachées d'un message envoyé : montrées à l'espace seulement, jamais dans un
        #: en-tête
        "bcc": List[SendEmailOutputMessageCcItem],
        "reply_to": Optional[str],
        "subject": str,
        "text": str,
        "has_html": bool,
        "auto_reply": bool,
        "status": Literal["draft", "queued", "sending", "sent", "delivered", "bounced", "failed", "rejected", "cancelled", "received"],
        "status_code": Optional[str],
        "revision": str,
        #: date ISO 8601 (UTC)
        "created_at": str,
        "sent_at": Optional[str],
        "received_at": Optional[str],
        "metadata": Optional[Dict[str, Any]],
        "attachments": List[SendEmailOutputMessageAttachment],
        "in_reply_to_id": Optional[str],
        "written_by": Optional[SendEmailOutputMessageWrittenBy],
        "campaign_id": Optional[str],
        "notice": Optional[str],
    },
)

_UpdateDraftOutputOptional = TypedDict(
    "_UpdateDraftOutputOptional",
    {
        #: pourquoi le texte n'a pas pu être lu : depth_limit (HTML trop imbriqué), time_limit
        #: (lecture trop longue), memory_limit (trop de mémoire), unreadable (illisible)
        "text_unavailable": Literal["depth_limit", "time_limit", "memory_limit", "unreadable"],
        "truncated": bool,
        "reply_text": str,
    },
    total=False,
)


class UpdateDraftOutput(_UpdateDraftOutputRequired, _UpdateDraftOutputOptional):
    pass


class SetWebhookInput(TypedDict):
    #: adresse https, au plus 500 caractères
    url: str


class SetWebhookOutput(TypedDict):
    #: les types d’événements envoyés à cette adresse
    events: List[str]
    #: une adresse était déjà déclarée
    replaced: bool
    #: whsec_… : la clé des signatures, montrée cette seule fois
    secret: str
    #: l'adresse déclarée
    url: str
    notice: Optional[str]


class EventFeedInput(TypedDict, total=False):
    #: next_cursor de l'appel précédent, tel quel ; absent : depuis le plus ancien événement gardé
    after: str
    #: 1 à 500, 100 par défaut
    limit: int


class EventFeedOutputEventAccount(TypedDict):
    #: identifiant spc_...
    space_id: str


class EventFeedOutputEventSubjectPerson(TypedDict):
    email: str
    name: Optional[str]


class EventFeedOutputEventSubject(TypedDict):
    person: Optional[EventFeedOutputEventSubjectPerson]
    #: inbox_id, thread_id, message_id, campaign_id, domain_id selon le type
    refs: Dict[str, str]


class EventFeedOutputEvent(TypedDict):
    #: identifiant evt_...
    id: str
    #: mail.message.queued, mail.inbox.suspended… (docs/events.md)
    type: str
    #: date ISO 8601 (UTC)
    occurred_at: str
    account: EventFeedOutputEventAccount
    subject: EventFeedOutputEventSubject
    #: selon le type ; contient les metadata de l'envoi
    data: Dict[str, Any]
    v: Literal[1]


class EventFeedOutput(TypedDict):
    events: List[EventFeedOutputEvent]
    #: toujours présent ; identique quand rien n'est nouveau ; à passer en after
    next_cursor: str
    notice: Optional[str]


class AttachHumanInput(TypedDict):
    #: adresse e-mail de l'humain
    email: str


class AttachHumanOutput(TypedDict):
    #: adresse masquée où le code est parti
    human_email: str
    code_sent: bool
    #: date ISO 8601 (UTC)
    expires_at: str
    notice: Optional[str]


class VerifyInput(TypedDict):
    #: code à 6 chiffres reçu par e-mail
    code: str


class VerifyOutput(TypedDict):
    verified: Literal[True]
    #: adresse masquée de l'humain rattaché
    human_email: str
    notice: Optional[str]


class CloseSpaceInput(TypedDict, total=False):
    #: code à 6 chiffres reçu par e-mail
    confirmation_code: str
    #: true : annule la fermeture confirmée et tout code en attente
    cancel: bool


class CloseSpaceOutputRemoves(TypedDict):
    inboxes: int
    domains: int
    subscription: Optional[str]
    invoices_kept: bool


class CloseSpaceOutput(TypedDict):
    #: une fermeture confirmée vient d'être annulée
    cancelled: bool
    closes_at: Optional[str]
    code_sent: bool
    expires_at: Optional[str]
    human_email: Optional[str]
    removes: CloseSpaceOutputRemoves
    #: fermeture confirmée, effacement à closes_at
    scheduled: bool
    notice: Optional[str]


BillingStatusInput = ListKeysInput


class BillingStatusOutput(TypedDict):
    #: none sans offre
    plan: str
    status: Literal["none", "active", "past_due", "cancelled"]
    current_period_end: Optional[str]
    inbox_cap: int
    inboxes_used: int
    notice: Optional[str]


class SubscribeInput(TypedDict):
    #: nom de l'offre, par exemple starter, pro, scale
    plan: str


class SubscribeOutput(TypedDict):
    plan: str
    #: page de paiement, à ouvrir par l'humain
    checkout_url: str
    notice: Optional[str]


class ListSuppressionsInput(TypedDict, total=False):
    #: partie d'adresse ou de domaine ; adresse complète : test d'adresse morte
    query: str
    #: next_cursor de l'appel précédent
    cursor: str
    #: 1 à 100, 20 par défaut
    limit: int


class ListSuppressionsOutputItem(TypedDict):
    #: identifiant sup_...
    id: str
    #: adresse en minuscules, ou @domaine
    value: str
    kind: Literal["address", "domain"]
    reason: Literal["unsubscribe", "complaint", "bounce", "manual"]
    scope: Literal["space"]
    #: message d'origine (msg_...) ou clé qui l'a ajouté (key_...)
    source: str
    #: date ISO 8601 (UTC)
    created_at: str
    note: Optional[str]


class ListSuppressionsOutputDeadAddress(TypedDict):
    value: str
    since: Optional[str]


class ListSuppressionsOutput(TypedDict):
    items: List[ListSuppressionsOutputItem]
    next_cursor: Optional[str]
    dead_address: Optional[ListSuppressionsOutputDeadAddress]
    notice: Optional[str]


class _AddSuppressionInputRequired(TypedDict):
    #: adresse, ou domaine (@exemple.fr)
    value: str


class AddSuppressionInput(_AddSuppressionInputRequired, total=False):
    #: motif, 200 caractères au plus
    reason: str


class AddSuppressionOutput(TypedDict):
    #: false : un blocage était déjà en place, il est rendu
    created: bool
    entry: ListSuppressionsOutputItem
    notice: Optional[str]


class RemoveSuppressionInput(TypedDict):
    #: adresse, ou domaine (@exemple.fr)
    value: str


class RemoveSuppressionOutput(TypedDict):
    removed: ListSuppressionsOutputItem


class _AddFilterInputRequired(TypedDict):
    #: receive : courrier reçu ; send : envois
    direction: Literal["receive", "send"]
    #: block : refusé ; allow : dès qu'un allow existe, seuls les correspondants autorisés passent
    action: Literal["allow", "block"]
    #: adresse, domaine (exemple.fr) ou .exemple.fr (sous-domaines compris)
    value: str


class AddFilterInput(_AddFilterInputRequired, total=False):
    #: boîte concernée ; absent : tout l'espace
    inbox_id: str


class AddFilterOutputFilter(TypedDict):
    #: identifiant flt_...
    id: str
    inbox_id: Optional[str]
    #: receive : courrier reçu ; send : envois
    direction: Literal["receive", "send"]
    #: block : refusé ; allow : dès qu'un allow existe, seuls les correspondants autorisés passent
    action: Literal["allow", "block"]
    #: adresse, domaine (exemple.fr) ou domaine et sous-domaines (.exemple.fr), en minuscules et
    #: punycode
    value: str
    #: date ISO 8601 (UTC)
    created_at: str
    #: clé qui a ajouté le filtre, ou human : l'humain de l'espace dans l'espace de travail
    created_by: Union[Literal["human"], str]


class AddFilterOutput(TypedDict):
    #: false : le même filtre était déjà en place, il est rendu
    created: bool
    filter: AddFilterOutputFilter
    notice: Optional[str]


class ListFiltersInput(TypedDict, total=False):
    #: identifiant inb_...
    inbox_id: str


class ListFiltersOutput(TypedDict):
    items: List[AddFilterOutputFilter]


class RemoveFilterInput(TypedDict):
    #: identifiant flt_...
    filter_id: str


class RemoveFilterOutput(TypedDict):
    removed: AddFilterOutputFilter


class ListThreadsInput(TypedDict, total=False):
    #: identifiant inb_...
    inbox_id: str
    #: une étiquette posée par classify_thread
    label: str
    #: true : les fils archivés seulement ; absent ou false : les autres
    archived: bool
    #: true : fils avec des messages reçus non lus ; false : sans
    unread: bool
    #: adresse du correspondant
    contact: str
    #: next_cursor de l'appel précédent
    cursor: str
    #: 1 à 100, 20 par défaut
    limit: int


class ListThreadsOutput(TypedDict):
    items: List[SendEmailOutputThread]
    next_cursor: Optional[str]
    notice: Optional[str]


class _GetThreadInputRequired(TypedDict):
    #: identifiant thr_...
    thread_id: str


class GetThreadInput(_GetThreadInputRequired, total=False):
    #: next_cursor de l'appel précédent
    cursor: str


class GetThreadOutput(TypedDict):
    messages: List[SendEmailOutputMessage]
    next_cursor: Optional[str]
    thread: SendEmailOutputThread
    #: true quand des textes ont été tronqués
    truncated: bool
    notice: Optional[str]


class _ClassifyThreadInputRequired(TypedDict):
    #: identifiant thr_...
    thread_id: str


class ClassifyThreadInput(_ClassifyThreadInputRequired, total=False):
    labels: List[str]
    archived: bool
    read: bool


class ClassifyThreadOutput(TypedDict):
    thread: SendEmailOutputThread


class _SearchThreadsInputRequired(TypedDict):
    #: les mots cherchés, 2 lettres ou chiffres au moins chacun
    query: str


class SearchThreadsInput(_SearchThreadsInputRequired, total=False):
    #: identifiant inb_...
    inbox_id: str
    #: une étiquette posée par classify_thread
    label: str
    #: next_cursor de l'appel précédent
    cursor: str
    #: 1 à 50, 20 par défaut
    limit: int


class SearchThreadsOutputItem(TypedDict):
    thread: SendEmailOutputThread
    #: les messages du fil qui correspondent, du plus récent au plus ancien (50 au plus)
    message_ids: List[str]
    #: un passage du plus récent de ces messages, autour du premier mot trouvé
    snippet: str


class SearchThreadsOutput(TypedDict):
    items: List[SearchThreadsOutputItem]
    next_cursor: Optional[str]
    notice: Optional[str]


class OpenWorkspaceInputArguments(TypedDict, total=False):
    #: fils : chercher dans le courrier ; contacts : chercher un contact
    query: str
    #: contacts : la fiche de ce contact
    email: str
    #: campagnes ou performances : cette campagne
    campaign_id: str
    #: audiences ou contacts : cette audience
    audience_id: str
    #: fils : ce fil
    thread_id: str
    #: fils avec thread_id : ce message du fil
    message_id: str
    #: fils : les fils de cette boîte
    inbox_id: str
    #: fils : les fils de cette étiquette
    label: str
    #: fils : les fils archivés
    archived: bool
    #: fils : true, les non lus ; false, les lus
    unread: bool
    #: campagnes ou performances : les campagnes dans cet état (draft, running, paused, finished,
    #: cancelled)
    status: str


class OpenWorkspaceInput(TypedDict, total=False):
    #: page de l'espace de travail ; performances avec campaign_id : les résultats de cette campagne
    page: Literal["jour", "valider", "fils", "campagnes", "performances", "audiences", "contacts", "boites", "domaines", "blocages", "espace"]
    arguments: OpenWorkspaceInputArguments


class OpenWorkspaceOutputRoute(TypedDict):
    #: page de l'espace de travail ; performances avec campaign_id : les résultats de cette campagne
    page: Literal["jour", "valider", "fils", "campagnes", "performances", "audiences", "contacts", "boites", "domaines", "blocages", "espace"]
    arguments: OpenWorkspaceInputArguments


class OpenWorkspaceOutput(TypedDict):
    #: identifiant de l'espace de travail ouvert (wsi_...), tiré de son contexte
    instance_id: str
    #: séquence de départ : 0
    sequence: int
    route: OpenWorkspaceOutputRoute
    #: date ISO 8601 (UTC)
    expires_at: str
    #: la ressource MCP App qui affiche la vue
    resource_uri: str
    notice: Optional[str]


class _NavigateWorkspaceInputRequired(TypedDict):
    #: page de l'espace de travail ; performances avec campaign_id : les résultats de cette campagne
    page: Literal["jour", "valider", "fils", "campagnes", "performances", "audiences", "contacts", "boites", "domaines", "blocages", "espace"]
    #: identifiant de l'espace de travail ouvert (wsi_...), tiré de son contexte
    instance_id: str


class NavigateWorkspaceInput(_NavigateWorkspaceInputRequired, total=False):
    arguments: OpenWorkspaceInputArguments


class NavigateWorkspaceOutputNavigation(TypedDict):
    #: identifiant de l'espace de travail ouvert (wsi_...), tiré de son contexte
    instance_id: str
    #: séquence de cette commande
    sequence: int
    route: OpenWorkspaceOutputRoute


class _NavigateWorkspaceOutputRequired(TypedDict):
    #: toujours false ici : une instance fermée répond workspace_expired
    closed: bool
    #: identifiant de l'espace de travail ouvert (wsi_...), tiré de son contexte
    instance_id: str
    #: séquence de l'instance ; la vue ignore les commandes plus anciennes
    sequence: int
    #: true : cette page était déjà la dernière demandée, rien de nouveau
    unchanged: bool


class NavigateWorkspaceOutput(_NavigateWorkspaceOutputRequired, total=False):
    _navigation: NavigateWorkspaceOutputNavigation
    #: navigation demandée, pas encore confirmée affichée
    status: Literal["pending"]


class _WorkspaceEventsInputRequired(TypedDict):
    #: identifiant de l'espace de travail ouvert (wsi_...), tiré de son contexte
    instance_id: str
    #: dernière commande reçue par la vue ; 0 avant la première
    after_sequence: int


class WorkspaceEventsInput(_WorkspaceEventsInputRequired, total=False):
    #: dernière commande traitée par la vue
    ack_sequence: int
    #: libère l'instance à la fermeture de la vue, sans attendre
    close: bool
    #: barrière de séquence après une navigation locale
    local_navigation: bool


class WorkspaceEventsOutputNavigation(TypedDict):
    #: identifiant de l'espace de travail ouvert (wsi_...), tiré de son contexte
    instance_id: str
    #: séquence de cette commande
    sequence: int
    route: OpenWorkspaceOutputRoute
    #: par outil lu : sa réponse, ou {error: {code, message}}
    result: Dict[str, Any]


class _WorkspaceEventsOutputRequired(TypedDict):
    closed: bool
    #: identifiant de l'espace de travail ouvert (wsi_...), tiré de son contexte
    instance_id: str
    #: séquence de l'instance à cet instant
    sequence: int
    #: true : pas de nouvelle page à appliquer
    unchanged: bool


class WorkspaceEventsOutput(_WorkspaceEventsOutputRequired, total=False):
    _navigation: WorkspaceEventsOutputNavigation
    status: Literal["pending", "superseded"]


class CreateAudienceInput(TypedDict):
    #: nom de l'audience, une ligne
    name: str


class CreateAudienceOutputAudience(TypedDict):
    #: identifiant aud_...
    id: str
    name: str
    contact_count: int
    #: date ISO 8601 (UTC)
    created_at: str


class CreateAudienceOutput(TypedDict):
    audience: CreateAudienceOutputAudience
    notice: Optional[str]


class _AddContactsInputContactRequired(TypedDict):
    email: str


class AddContactsInputContact(_AddContactsInputContactRequired, total=False):
    name: str
    #: champs libres (au plus 20) : nom -> texte ; {{nom}} les place dans une campagne
    fields: Dict[str, str]


class AddContactsInput(TypedDict):
    #: identifiant aud_...
    audience_id: str
    contacts: List[AddContactsInputContact]


class AddContactsOutputSkipped(TypedDict):
    #: adresse invalide
    invalid: int
    #: déjà dans l'audience (ou deux fois dans l'appel)
    duplicate: int
    #: bloquée par l'espace (désabonnement, plainte, blocage)
    suppressed: int
    #: adresse morte pour toute la plateforme (rebond définitif)
    dead_address: int


class AddContactsOutputExample(TypedDict):
    email: str
    reason: Literal["invalid", "duplicate", "suppressed", "dead_address"]


class AddContactsOutput(TypedDict):
    added: int
    skipped: AddContactsOutputSkipped
    examples: List[AddContactsOutputExample]


class RemoveContactsInput(TypedDict):
    #: identifiant aud_...
    audience_id: str
    emails: List[str]


class RemoveContactsOutput(TypedDict):
    removed: int


ListAudiencesInput = ListKeysInput


class ListAudiencesOutput(TypedDict):
    items: List[CreateAudienceOutputAudience]


class ListContactsInput(TypedDict, total=False):
    #: identifiant aud_...
    audience_id: str
    #: partie d'adresse ou de nom
    query: str
    #: next_cursor de l'appel précédent
    cursor: str
    #: 1 à 200, 50 par défaut
    limit: int


class ListContactsOutputItem(TypedDict):
    email: str
    name: Optional[str]
    #: champs libres (au plus 20) : nom -> texte ; {{nom}} les place dans une campagne
    fields: Dict[str, str]


class ListContactsOutput(TypedDict):
    items: List[ListContactsOutputItem]
    next_cursor: Optional[str]
    notice: Optional[str]


class GetContactInput(TypedDict):
    email: str


class GetContactOutputThread(TypedDict):
    #: identifiant thr_...
    thread_id: str
    #: identifiant inb_...
    inbox_id: str
    subject: str
    #: date ISO 8601 (UTC)
    last_message_at: str
    campaign_id: Optional[str]


class GetContactOutputCampaign(TypedDict):
    #: identifiant cmp_...
    campaign_id: str
    name: str
    campaign_status: str
    #: claimed : en cours d'écriture ; written : écrit ; skipped : écarté ; stopped : relances
    #: arrêtées
    state: Literal["claimed", "written", "skipped", "stopped"]
    reason: Optional[str]
    #: 0 : premier message ; n : n-ième relance
    step: int
    thread_id: Optional[str]
    inbox_id: Optional[str]


class GetContactOutputSuppression(TypedDict):
    reason: str
    #: date ISO 8601 (UTC)
    since: str


class GetContactOutput(TypedDict):
    contact: ListContactsOutputItem
    audiences: List[CreateAudienceOutputAudience]
    threads: List[GetContactOutputThread]
    campaigns: List[GetContactOutputCampaign]
    suppression: Optional[GetContactOutputSuppression]
    dead_address: bool
    notice: Optional[str]


class DeleteAudienceInput(TypedDict):
    #: identifiant aud_...
    audience_id: str
    #: doit valoir true : action irréversible
    confirm: Literal[True]


class DeleteAudienceOutput(TypedDict):
    deleted: CreateAudienceOutputAudience


class CreateCampaignInputFollowUp(TypedDict):
    #: jours ouvrés (Paris) après le message précédent
    after_days: int
    #: texte brut ; {{champ}} permis
    text: str


class _CreateCampaignInputRequired(TypedDict):
    #: nom de la campagne, une ligne
    name: str
    #: identifiant aud_...
    audience_id: str
    #: boîtes d'envoi, actives et de domaines vérifiés
    inbox_ids: List[str]
    #: une ligne ; {{champ}} permis
    subject: str
    #: texte brut ; {{champ}} et {{unsubscribe_url}} permis
    text: str


class CreateCampaignInput(_CreateCampaignInputRequired, total=False):
    html: str
    follow_ups: List[CreateCampaignInputFollowUp]
    #: chaque message attend une validation humaine (brouillon)
    requires_approval: bool
    #: pas avant cette date (ISO 8601, ou heure de Paris sans fuseau)
    send_after: str


class CreateCampaignOutputCampaign(TypedDict):
    #: identifiant cmp_...
    id: str
    name: str
    #: identifiant aud_...
    audience_id: str
    inbox_ids: List[str]
    subject: str
    text: str
    has_html: bool
    follow_ups: List[CreateCampaignInputFollowUp]
    requires_approval: bool
    send_after: Optional[str]
    #: draft : pas encore lancée ; running : en cours ; paused : en pause ; finished : terminée ;
    #: cancelled : annulée
    status: Literal["draft", "running", "paused", "finished", "cancelled"]
    #: date ISO 8601 (UTC)
    created_at: str
    started_at: Optional[str]
    finished_at: Optional[str]


class CreateCampaignOutput(TypedDict):
    campaign: CreateCampaignOutputCampaign
    notice: Optional[str]


class StartCampaignInput(TypedDict):
    #: identifiant cmp_...
    campaign_id: str


class StartCampaignOutput(TypedDict):
    campaign: CreateCampaignOutputCampaign
    #: draft : pas encore lancée ; running : en cours ; paused : en pause ; finished : terminée ;
    #: cancelled : annulée
    was: Literal["draft", "running", "paused", "finished", "cancelled"]
    notice: Optional[str]


PauseCampaignInput = StartCampaignInput


class PauseCampaignOutput(TypedDict):
    campaign: CreateCampaignOutputCampaign
    #: messages en file retenus jusqu'à la reprise
    held: int
    notice: Optional[str]


class ListCampaignsInput(TypedDict, total=False):
    #: draft : pas encore lancée ; running : en cours ; paused : en pause ; finished : terminée ;
    #: cancelled : annulée
    status: Literal["draft", "running", "paused", "finished", "cancelled"]


class ListCampaignsOutput(TypedDict):
    items: List[CreateCampaignOutputCampaign]


CampaignStatusInput = StartCampaignInput


class CampaignStatusOutputFiguresSkipped(TypedDict):
    suppressed: int
    dead_address: int
    duplicate: int
    filtered: int
    unresolved_placeholder: int
    field_placeholder: int
    invalid_subject: int
    removed: int


class CampaignStatusOutputFiguresRates(TypedDict):
    reply: float
    bounce: float
    unsubscribe: float


class CampaignStatusOutputFiguresPerInboxItem(TypedDict):
    #: identifiant inb_...
    inbox_id: str
    #: contacts visés : écrits, en attente et écartés
    recipients: int
    drafts: int
    queued: int
    sent: int
    delivered: int
    bounced: int
    failed: int
    rejected: int
    cancelled: int
    #: contacts ayant répondu (réponse automatique exclue)
    replied: int
    unsubscribed: int
    complained: int
    #: relances parties (des messages, pas des contacts)
    follow_ups_sent: int


class CampaignStatusOutputFiguresDay(TypedDict):
    #: jour de Paris, AAAA-MM-JJ
    day: str
    sent: int
    replied: int


class CampaignStatusOutputFigures(TypedDict):
    #: contacts visés : écrits, en attente et écartés
    recipients: int
    drafts: int
    queued: int
    sent: int
    delivered: int
    bounced: int
    failed: int
    rejected: int
    cancelled: int
    #: contacts ayant répondu (réponse automatique exclue)
    replied: int
    unsubscribed: int
    complained: int
    #: relances parties (des messages, pas des contacts)
    follow_ups_sent: int
    #: contacts pas encore écrits
    waiting: int
    skipped: CampaignStatusOutputFiguresSkipped
    rates: CampaignStatusOutputFiguresRates
    per_inbox: List[CampaignStatusOutputFiguresPerInboxItem]
    days: List[CampaignStatusOutputFiguresDay]
    next_send_at: Optional[str]


class CampaignStatusOutput(TypedDict):
    campaign: CreateCampaignOutputCampaign
    figures: CampaignStatusOutputFigures
    notice: Optional[str]
