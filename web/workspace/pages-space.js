// The space's pages: inboxes, domains, blocks, the space itself (accesses, plan, webhook, closure).

PAGES.boites = (result, route) => ({
  title: TITLES.boites,
  node: answerOr(result.list_inboxes, (data) => data.items.length
    ? paged({ class: 'cards', label: 'Boîtes' }, data, (d) => d.items, inboxCard,
      { tool: 'list_inboxes', args: readOf(route, 'list_inboxes').arguments, text: 'Afficher plus de boîtes', one: 'boîte', many: 'boîtes' })
    : empty('Aucune boîte. Un agent en crée une (create_inbox) sur un domaine vérifié, ou sur le domaine commun pour commencer ; ', link('voir les domaines', routeTo('domaines')), '.')),
});

function inboxCard(inbox) {
  const suspension = inbox.status === 'suspended' && inbox.suspension;
  return h('li', {},
    h('h2', {}, inbox.display_name ? person(inbox.display_name, inbox.address) : inbox.address),
    figures([
      ['État', `${words(inbox.status)}${inbox.status_reason ? ` : ${inbox.status_reason}` : ''}`],
      ['Envois du jour', `${plural(inbox.quota.sent_today, 'envoi', 'envois')} sur ${num(inbox.quota.daily_quota)} permis aujourd’hui`],
      ['Montée en charge', inbox.warmup.finished ? 'terminée' : `semaine ${inbox.warmup.week}, ${plural(inbox.warmup.step, 'envoi', 'envois')} par jour au plus`],
      ['Fenêtre d’envoi', inbox.send_window],
      ['Prochain départ', inbox.next_send_at ? inWords(inbox.next_send_at) : 'aucun message en file'],
      ['Brouillons', inbox.drafts ? link(`${plural(inbox.drafts, 'brouillon', 'brouillons')} à valider`, routeTo('valider')) : 'aucun'],
      ['En file', plural(inbox.queued, 'message', 'messages')],
    ]),
    h('p', { class: 'actions' }, link('Voir ses fils', routeTo('fils', { inbox_id: inbox.id })),
      suspension && suspension.review === 'requested' ? [' · Reprise demandée ', time(suspension.requested_at), '.'] : null,
      suspension && suspension.review !== 'requested' && may('approve')
        ? [' ', button('Demander la reprise', () => act('request_inbox_review', { inbox_id: inbox.id }, 'Reprise demandée : l’opérateur examinera la boîte.'))] : null));
}

PAGES.domaines = (result) => ({
  title: TITLES.domaines,
  node: answerOr(result.list_domains, (data) => data.domains.length
    ? h('ul', { class: 'cards' }, data.domains.map(domainCard))
    : empty('Aucun domaine enregistré. Un agent en ajoute un (add_domain) ; les enregistrements DNS à publier s’affichent alors ici.')),
});

const DOMAIN_STATES = { pending: 'en attente de ses enregistrements DNS', verified: 'vérifié', suspended: 'suspendu' };

function domainCard(domain) {
  const cell = (label, ...content) => h('td', { 'data-label': label }, ...content);
  return h('li', {},
    h('h2', {}, domain.domain),
    h('p', { class: 'meta' }, `${DOMAIN_STATES[domain.status] || words(domain.status)}${domain.status_reason ? ` : ${domain.status_reason}` : ''}`,
      domain.last_checked_at ? [' · dernier contrôle ', time(domain.last_checked_at)] : ' · jamais contrôlé'),
    h('table', { class: 'stack dns' }, h('caption', {}, `Enregistrements DNS à publier pour ${domain.domain}`),
      h('thead', {}, h('tr', {}, ['Rôle', 'Nom', 'Type', 'Valeur à publier', 'État'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, domain.records.map((r) => h('tr', {},
        h('th', { scope: 'row', 'data-label': 'Rôle' }, words(r.role), r.required ? '' : ' (conseillé)'),
        cell('Nom', h('code', {}, r.name)), cell('Type', r.type), cell('Valeur à publier', h('code', {}, r.value)),
        cell('État', words(r.state), r.state === 'different' && r.seen ? [' : vu ', h('code', {}, r.seen)] : ''))))),
    may('manage_inboxes') ? button('Vérifier maintenant', () => act('verify_domain', { domain: domain.domain }, (d) => `Domaine ${d.domain} : ${DOMAIN_STATES[d.status] || words(d.status)}.`)) : null);
}

PAGES.blocages = (result, route) => ({
  title: TITLES.blocages,
  node: h('div', {},
    answerOr(result.list_suppressions, (data) => data.items.length
      ? paged({ class: 'list', label: 'Adresses et domaines bloqués' }, data, (d) => d.items, (entry) => h('li', {},
        h('strong', {}, entry.value), ` — ${words(entry.reason)}${entry.note ? ` (« ${entry.note} »)` : ''}, depuis le `, time(entry.created_at), ' ',
        may('approve') ? confirmed('Retirer', `Les envois à ${entry.value} redeviennent possibles.`, 'Retirer le blocage',
          () => act('remove_suppression', { value: entry.value }, `Blocage de ${entry.value} retiré.`)) : null),
      { tool: 'list_suppressions', args: readOf(route, 'list_suppressions').arguments, text: 'Afficher plus de blocages', one: 'blocage', many: 'blocages' })
      : empty('Aucun blocage : désinscriptions, plaintes et adresses mortes s’inscrivent ici d’elles-mêmes ; bloquez une adresse ci-dessous.')),
    may('send', 'approve') ? form('Bloquer une adresse ou un domaine', [
      field('Adresse, ou @domaine', 'value', { required: true, minlength: 3 }),
      field('Motif (facultatif)', 'reason', { maxlength: 200 }),
    ], 'Bloquer', (values) => act('add_suppression', { value: values.get('value'), ...(values.get('reason') ? { reason: values.get('reason') } : {}) }, 'Blocage ajouté.')) : null),
});

const BILLING = { none: 'aucun abonnement', active: 'actif', past_due: 'paiement en retard', cancelled: 'résilié' };

function webhookState(webhook) {
  if (!webhook) return empty('Aucun webhook déclaré. Un agent en déclare un (set_webhook) pour recevoir les événements de l’espace.');
  return figures([
    ['Adresse', h('code', {}, webhook.url)], ['Déclaré', inWords(webhook.declared_at)],
    ['État', webhook.failed_attempts
      ? `${plural(webhook.failed_attempts, 'essai manqué', 'essais manqués')}, prochain essai ${inWords(webhook.next_attempt_at)}`
      : 'tous les événements sont remis'],
    webhook.last_error ? ['Dernière erreur', webhook.last_error] : null,
  ]);
}

function accessItem(key) {
  const connection = key.kind === 'connection';
  return h('li', {},
    h('strong', {}, key.name), connection ? ` — assistant connecté${key.redirect_host ? ` (${key.redirect_host})` : ''}` : ' — clé d’agent',
    h('br'), `Permissions : ${permissionWords(key.permissions)} · boîtes : ${key.inbox_ids ? plural(key.inbox_ids.length, 'boîte', 'boîtes') : 'toutes'}`,
    key.daily_cap ? ` · ${plural(key.daily_cap, 'envoi', 'envois')} par jour au plus` : '', h('br'),
    'Dernier usage : ', key.last_used_at ? time(key.last_used_at) : 'jamais', ' ',
    key.id !== state.keyId && may('approve')
      ? confirmed('Retirer l’accès', `« ${key.name} » cessera de répondre aussitôt ; ce qu’il a écrit reste.`, 'Retirer l’accès',
        () => act('revoke_key', { key_id: key.id, confirm: true }, (d) => `Accès « ${d.name} » retiré.`))
      : key.id === state.keyId ? h('span', { class: 'meta' }, '(l’accès de cette page)') : null);
}

/** The space's closure in its three steps (close_space): a code to the human, the code, or the cancellation. */
function closure(space, humanEmail) {
  if (space.managed) return empty('Cet espace a été ouvert par un administrateur : il ne se ferme pas ici.');
  if (space.closes_at) {
    return h('div', {}, h('p', {}, 'Fermeture confirmée : l’espace sera effacé ', time(space.closes_at), '. Tout fonctionne jusque-là.'),
      may('approve') ? button('Annuler la fermeture', () => act('close_space', { cancel: true }, 'Fermeture annulée : l’espace reste ouvert.')) : null);
  }
  const codeStep = form('Confirmer la fermeture', [field('Code à 6 chiffres reçu par e-mail', 'confirmation_code', { inputmode: 'numeric', pattern: '[0-9]{6}', required: true, autocomplete: 'one-time-code' })],
    'Fermer l’espace', (values) => act('close_space', { confirmation_code: String(values.get('confirmation_code')) }, (d) => `Fermeture confirmée : effacement ${inWords(d.closes_at)}.`));
  return h('div', {},
    h('ol', { class: 'steps' },
      h('li', {}, `Demander un code : il part à ${humanEmail || 'l’humain de l’espace'}, valable 15 minutes.`),
      h('li', {}, 'Le saisir ici : l’espace est effacé 48 heures plus tard (boîtes, domaines, abonnement ; les factures restent).'),
      h('li', {}, 'Jusque-là, la fermeture s’annule.')),
    may('approve') ? h('p', {}, confirmed('Demander un code de fermeture', 'Un code part à l’humain de l’espace.', 'Envoyer le code',
      () => act('close_space', {}, (d) => (d.code_sent ? `Code envoyé à ${d.human_email}, valable jusqu’à ${clock(partsOf(FULL, d.expires_at))}.` : 'Fermeture déjà confirmée.')))) : null,
    may('approve') ? codeStep : null);
}

PAGES.espace = (result) => {
  const settings = result.get_settings;
  return {
    title: TITLES.espace,
    node: h('div', {},
      section('L’espace', settings, (data) => figures([
        ['Nom', data.space.name], ['Vérifié', data.space.verified ? 'oui' : 'non'], ['Humain', data.space.human_email || 'aucun'],
        ['Offre', planWords(data.space.plan)], ['Validation humaine', data.space.approval_required ? 'imposée pour chaque envoi' : 'au choix des agents'],
        ['Fenêtre d’envoi', data.space.send_window], ['Adresse MCP', h('code', {}, data.mcp_url)],
      ])),
      section('Abonnement', result.billing_status, (data) => figures([
        ['Offre', planWords(data.plan)], ['État', BILLING[data.status] || words(data.status)],
        ['Fin de la période payée', data.current_period_end ? inWords(data.current_period_end) : '—'],
        ['Boîtes', `${num(data.inboxes_used)} sur ${num(data.inbox_cap)} permises`],
      ])),
      section('Webhook', settings, (data) => webhookState(data.webhook)),
      section('Accès : clés et assistants connectés', result.list_keys, (data) => h('ul', { class: 'list' }, data.keys.map(accessItem))),
      section('Fermeture de l’espace', settings, (data) => closure(data.space, data.space.human_email))),
  };
};
