// The mail pages: today's journal, the drafts to approve, the threads and a thread.

/** The object a journal line is about, most precise first: its line links there. */
function lineRoute(line) {
  if (line.thread_id) return routeTo('fils', { thread_id: line.thread_id, message_id: line.message_id });
  if (line.campaign_id) return routeTo('campagnes', { campaign_id: line.campaign_id });
  if (line.contact) return routeTo('contacts', { email: line.contact });
  if (line.audience_id) return routeTo('audiences', { audience_id: line.audience_id });
  if (line.domain) return routeTo('domaines');
  if (line.inbox_id) return routeTo('boites');
  return null;
}
const ACTORS = { agent: 'agent', human: 'humain', service: 'service' };
const actorWords = (actor) => (actor.you ? 'vous' : actor.kind === 'service' ? 'Mailbox' : `${ACTORS[actor.kind]} « ${actor.name} »`);

PAGES.jour = (result, route) => {
  const answer = result.list_events;
  const day = answer && answer.day ? `Journal du ${dayInWords(answer.day)}` : 'Journal du jour';
  return { title: TITLES.jour, node: answerOr(answer, (data) => h('div', {}, h('p', { class: 'lead' }, day),
    data.events.length
      ? paged({ tag: 'ol', class: 'journal', label: day }, data, (d) => d.events, (line) => {
        const target = lineRoute(line);
        return h('li', {}, hourOf(line.at), ' ', target ? link(line.text, target) : line.text, h('span', { class: 'who' }, ` — ${actorWords(line.actor)}`));
      }, { tool: 'list_events', args: readOf(route, 'list_events').arguments, text: 'Afficher les lignes plus anciennes', one: 'ligne', many: 'lignes' })
      : empty('Rien encore aujourd’hui. Les envois, les réceptions et les validations s’inscriront ici ; ', link('voir les fils', routeTo('fils')), '.'))) };
};

// ---- À valider
PAGES.valider = (result, route) => ({
  title: TITLES.valider,
  node: answerOr(result.list_drafts, (data) => data.items.length
    ? h('div', {}, h('p', { class: 'lead' }, data.next_cursor ? 'Les brouillons les plus récents d’abord.' : `${plural(data.items.length, 'brouillon attend', 'brouillons attendent')} votre validation.`),
      paged({ class: 'cards' }, data, (d) => d.items, draftCard, { tool: 'list_drafts', args: readOf(route, 'list_drafts').arguments, text: 'Afficher plus de brouillons', one: 'brouillon', many: 'brouillons' }))
    : empty('Aucun brouillon n’attend votre validation. Quand un agent écrit un message à valider, il apparaît ici ; ', link('voir le journal du jour', routeTo('jour')), '.')),
});

function writer(message) {
  if (message.campaign_id) return [' pour ', link('une campagne', routeTo('campagnes', { campaign_id: message.campaign_id }))];
  const by = message.written_by;
  if (!by) return null;
  return by.key_id === 'human' ? ' par vous' : by.name ? ` par l’agent « ${by.name} »` : ' par un accès retiré depuis';
}

/** « Départ prévu mardi 24 novembre à 10 h 43 », or in a moment when that time is already there. */
const departure = (iso) => (Date.parse(iso) <= Date.now() + 60_000 ? 'il part dans un instant' : `départ prévu ${inWords(iso)}`);

/** « · copie à a, b · copie cachée à c » when a message has copies (the space sees its blind copies). */
function copiesWords(m) {
  const list = (copies) => (copies || []).map((c) => c.address).join(', ');
  return [list(m.cc) && ` · copie à ${list(m.cc)}`, list(m.bcc) && ` · copie cachée à ${list(m.bcc)}`].filter(Boolean).join('');
}

function draftCard(message) {
  const card = h('li', { id: message.id },
    h('h2', {}, message.subject || '(sans objet)'),
    h('p', { class: 'meta' }, `Pour ${message.to}${copiesWords(message)}, depuis ${message.from} · écrit`, writer(message), ' ', time(message.created_at)),
    message.in_reply_to_id ? answered(message) : null,
    h('div', { class: 'body' }, message.text),
    attachmentList(message),
    h('p', { class: 'actions' },
      may('approve') ? button('Approuver', () => act('approve_message', { message_id: message.id, revision: message.revision },
        (data) => `Message approuvé : ${departure(data.estimated_send_at)}.`)) : null,
      may('send', 'approve') ? button('Modifier', () => {
        const editor = editForm(message, card);
        card.replaceWith(editor);
        editor.querySelector('input').focus();
      }, 'secondary') : null,
      may('send', 'approve') ? confirmed('Annuler l’envoi', 'Ce brouillon ne partira pas.', 'Annuler le brouillon', () => act('cancel_message', { message_id: message.id }, 'Brouillon annulé : il ne partira pas.')) : null,
      link('Voir le fil', routeTo('fils', { thread_id: message.thread_id, message_id: message.id }))));
  return card;
}

/** The message a draft answers, read when the card shows: who wrote it, when, its new part. */
function answered(message) {
  const holder = h('blockquote', { class: 'answered' }, 'Message auquel il répond : lecture…');
  call('get_message', { message_id: message.in_reply_to_id }).then((answer) => {
    if (answer.error) return holder.replaceChildren(refusal(answer.error));
    const m = answer.data;
    holder.replaceChildren(h('p', { class: 'meta' }, 'En réponse à ', m.direction === 'inbound' ? `${m.from}, reçu ` : 'notre message, parti ', time(m.received_at || m.sent_at || m.created_at), ' :'),
      h('div', { class: 'body' }, m.reply_text || m.text));
  });
  return holder;
}

function editForm(message, card) {
  const node = h('li', {}, form(`Modifier le brouillon ${message.subject}`, [
    field('Objet', 'subject', { value: message.subject, maxlength: 300, required: true }),
    field('Texte', 'text', { multiline: true, rows: 10, required: true }, message.text),
    button('Abandonner la modification', () => {
      node.replaceWith(card);
      card.querySelector('button').focus();
    }, 'secondary'),
  ], 'Enregistrer', (values) => act('update_draft', { message_id: message.id, subject: values.get('subject'), text: values.get('text') }, 'Brouillon modifié : validez-le quand il vous convient.')));
  return node;
}

// ---- Fils
const TYPES = { 'application/pdf': 'PDF', 'image/png': 'image PNG', 'image/jpeg': 'image JPEG', 'text/plain': 'texte', 'text/csv': 'tableau CSV', 'text/html': 'page HTML' };
const typeWords = (type) => TYPES[type] || type.split('/').pop().replace(/^(x-|vnd\.)/, '').toUpperCase();

/** A message's files: each a link whose signed address (get_attachment's download_url) is asked for at the click. */
function attachmentList(message) {
  if (!message.attachments || !message.attachments.length) return null;
  return h('ul', { class: 'attachments', 'aria-label': 'Pièces jointes' }, message.attachments.map((file) => {
    const name = file.filename || 'pièce jointe sans nom';
    const anchor = h('a', { href: '#', download: name, onclick: async (event) => {
      if (anchor.dataset.ready) return;
      event.preventDefault();
      const answer = await call('get_attachment', { message_id: message.id, attachment_id: file.id });
      if (answer.error) return say(answer.error.message, 'error');
      anchor.href = answer.data.download_url;
      anchor.dataset.ready = '1';
      anchor.click();
    } }, name);
    return h('li', {}, anchor, h('span', { class: 'meta' }, ` — ${typeWords(file.content_type)}, ${size(file.size)}${file.inline ? ', dans le corps du message' : ''}`));
  }));
}

function threadRow(thread, inboxes, snippet) {
  return h('li', { class: thread.unread ? 'unread' : null },
    h('p', { class: 'row' }, h('span', { class: 'who' }, thread.unread ? h('span', { class: 'dot' }, h('span', { class: 'sr' }, 'Non lu : ')) : null, thread.contact_name || thread.contact || 'expéditeur inconnu'),
      ' ', shortDate(thread.last_message_at)),
    h('p', { class: 'subject' }, link(thread.subject || '(sans objet)', routeTo('fils', { thread_id: thread.id }))),
    (snippet ?? thread.snippet) ? h('p', { class: 'snippet' }, snippet ?? thread.snippet) : null,
    h('p', { class: 'meta' }, inboxes.get(thread.inbox_id) || '', thread.message_count > 1 ? ` · ${plural(thread.message_count, 'message', 'messages')}` : '',
      thread.archived ? ' · archivé' : '', thread.labels.map((label) => [' ', h('span', { class: 'label' }, label)])));
}

function threadFilters(route, inboxes) {
  const args = route.arguments;
  return h('div', { class: 'filters' },
    form('Chercher dans le courrier', [field('Chercher dans le courrier', 'query', { type: 'search', value: args.query, required: true, maxlength: 200 })], 'Chercher',
      (values) => navigateLocally(routeTo('fils', { query: String(values.get('query')).trim() })), { role: 'search' }),
    form('Filtrer les fils', [
      select('Boîte', 'inbox_id', [['', 'Toutes les boîtes'], ...[...inboxes]], args.inbox_id),
      field('Étiquette', 'label', { value: args.label, maxlength: 40 }),
      checkbox('Non lus seulement', 'unread', args.unread === true),
      checkbox('Archivés', 'archived', args.archived === true),
    ], 'Filtrer', (values) => navigateLocally(routeTo('fils', {
      inbox_id: values.get('inbox_id'), label: String(values.get('label')).trim(), unread: values.get('unread') ? true : undefined, archived: values.get('archived') ? true : undefined,
    }))));
}

PAGES.fils = (result, route) => {
  const inboxes = inboxesOf(result);
  if (route.arguments.thread_id) return threadPage(result.get_thread, route, inboxes);
  const args = route.arguments;
  const filtered = args.inbox_id || args.label || args.unread !== undefined || args.archived;
  const more = { args: readOf(route, args.query ? 'search_threads' : 'list_threads').arguments, text: 'Afficher plus de fils', one: 'fil', many: 'fils' };
  const list = args.query
    ? answerOr(result.search_threads, (data) => data.items.length
      ? paged({ class: 'threads', label: `Fils trouvés pour « ${args.query} »` }, data, (d) => d.items, (item) => threadRow(item.thread, inboxes, item.snippet), { ...more, tool: 'search_threads' })
      : empty(`Aucun fil ne contient « ${args.query} ». Essayez un autre mot, ou `, link('voir tous les fils', routeTo('fils')), '.'))
    : answerOr(result.list_threads, (data) => data.items.length
      ? paged({ class: 'threads', label: 'Fils, le plus récent d’abord' }, data, (d) => d.items, (thread) => threadRow(thread, inboxes), { ...more, tool: 'list_threads' })
      : filtered ? empty('Aucun fil ne répond à ces filtres. ', link('Voir tous les fils', routeTo('fils')), '.')
        : empty('Aucun fil pour l’instant : les messages que vos boîtes reçoivent et envoient apparaîtront ici. ', link('Voir les boîtes', routeTo('boites')), '.'));
  return { title: args.query ? `Recherche « ${args.query} »` : TITLES.fils, node: h('div', {}, threadFilters(route, inboxes), list) };
};

function threadPage(answer, route, inboxes) {
  if (answer.error) return { title: TITLES.fils, node: h('div', {}, refusal(answer.error), h('p', {}, link('Tous les fils', routeTo('fils')))) };
  const thread = answer.thread;
  if (thread.unread && may('send', 'approve')) markRead(thread);
  const other = thread.contact_name ? person(thread.contact_name, thread.contact) : thread.contact;
  return {
    title: thread.subject || '(sans objet)',
    node: h('div', {},
      h('p', { class: 'lead' }, link('← Tous les fils', routeTo('fils'))),
      figures([
        ['Avec', thread.contact ? link(other, routeTo('contacts', { email: thread.contact })) : other || 'expéditeur inconnu'],
        ['Boîte', inboxes.get(thread.inbox_id) || thread.inbox_id],
        ['Messages', num(thread.message_count)],
        ['Étiquettes', thread.labels.join(', ') || 'aucune'],
        thread.campaign_id ? ['Campagne', link('voir la campagne', routeTo('campagnes', { campaign_id: thread.campaign_id }))] : null,
      ]),
      paged({ tag: 'ol', class: 'messages', label: 'Messages du fil' }, answer, (d) => d.messages, messageItem,
        { tool: 'get_thread', args: { thread_id: thread.id }, text: 'Afficher les messages suivants', one: 'message', many: 'messages' }),
      may('send', 'approve') ? classifyForm(thread) : null),
  };
}

/** Opening a thread marks its received messages read (classify_thread, journaled with the reader). */
async function markRead(thread) {
  const answer = await call('classify_thread', { thread_id: thread.id, read: true });
  if (answer.error) say(answer.error.message, 'error');
}

function classifyForm(thread) {
  return form('Classer le fil', [
    field('Étiquettes, séparées par des virgules', 'labels', { value: thread.labels.join(', ') }),
    checkbox('Archivé', 'archived', thread.archived),
  ], 'Classer', (values) => act('classify_thread', {
    thread_id: thread.id, labels: String(values.get('labels')).split(',').map((l) => l.trim()).filter(Boolean), archived: values.get('archived') === 'on',
  }, 'Fil classé.'));
}

const SENT_WORDS = { draft: 'brouillon à valider', queued: 'en file d’attente', sending: 'en cours d’envoi', sent: 'parti', delivered: 'remis au serveur du destinataire',
  bounced: 'rejeté par le serveur du destinataire', failed: 'non remis après plusieurs essais', rejected: 'refusé', cancelled: 'annulé' };

function messageHeader(m) {
  if (m.direction === 'inbound') return [`De ${m.from || 'expéditeur inconnu'}${copiesWords(m)}, reçu `, time(m.received_at || m.created_at), m.auto_reply ? ' · réponse automatique' : ''];
  const when = m.sent_at ? [', ', time(m.sent_at)] : [', écrit ', time(m.created_at)];
  return [`À ${m.to}${copiesWords(m)}`, when, ` · ${SENT_WORDS[m.status] || words(m.status)}`, writer(m)];
}

function messageItem(m) {
  const body = h('div', { class: 'body' }, m.direction === 'inbound' && m.reply_text !== undefined && m.reply_text !== m.text && m.reply_text ? m.reply_text : m.text);
  const quoted = m.direction === 'inbound' && m.reply_text && m.reply_text !== m.text
    ? h('details', {}, h('summary', {}, 'Afficher le texte cité'), h('div', { class: 'body' }, m.text)) : null;
  const extras = h('p', { class: 'actions' },
    m.truncated ? button('Lire le message en entier', async () => {
      const full = await call('get_message', { message_id: m.id });
      if (full.error) return say(full.error.message, 'error');
      body.textContent = full.data.text;
      quoted && quoted.remove();
      say('Message affiché en entier.');
    }, 'secondary') : null,
    m.has_html ? button('Afficher la version HTML', (event) => showHtml(m, event.target), 'secondary') : null,
    m.status === 'draft' ? link('Valider ce brouillon', routeTo('valider')) : null);
  return h('li', { id: m.id, class: m.direction, tabindex: '-1' },
    h('p', { class: 'meta' }, messageHeader(m)),
    m.truncated ? h('p', { class: 'meta' }, 'Texte tronqué : la lecture d’un fil s’arrête à 200 Ko de textes.') : null,
    body, quoted, attachmentList(m), extras.childNodes.length ? extras : null);
}

/**
 * The HTML version, asked for: in a frame that runs nothing (sandbox without scripts) and loads nothing
 * from elsewhere (its own CSP) until the person asks for the remote images. Links open in a new tab.
 */
async function showHtml(message, trigger) {
  const answer = await call('get_message', { message_id: message.id });
  if (answer.error) return say(answer.error.message, 'error');
  const parsed = new DOMParser().parseFromString(answer.data.html || '', 'text/html');
  for (const node of parsed.querySelectorAll('script, meta, base, link, iframe, object, embed, form')) node.remove();
  const frameOf = (remote) => {
    const csp = `default-src 'none'; style-src 'unsafe-inline'; img-src data:${remote ? ' https: http:' : ''}`;
    const frame = h('iframe', {
      class: 'html', title: `Version HTML du message « ${message.subject} »`, sandbox: 'allow-same-origin allow-popups allow-popups-to-escape-sandbox', referrerpolicy: 'no-referrer',
      srcdoc: `<!doctype html><html lang="fr"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="${csp}"><base target="_blank">` +
        `<style>body{margin:0;font:15px/1.45 system-ui,sans-serif;overflow-wrap:anywhere}img{max-width:100%;height:auto}</style></head><body>${parsed.body.innerHTML}</body></html>`,
    });
    // Its whole height, measured once loaded: the message reads as one page, never in a box of its own.
    frame.addEventListener('load', () => { frame.style.height = `${frame.contentDocument.documentElement.scrollHeight + 4}px`; });
    return frame;
  };
  const holder = h('div', { class: 'html-version' }, frameOf(false),
    h('p', {}, button('Afficher les images distantes', (event) => {
      holder.firstChild.replaceWith(frameOf(true));
      event.target.remove();
      say('Images distantes affichées : leurs serveurs savent que le message est lu.');
    }, 'secondary'), ' Les images distantes restent bloquées tant que vous ne les demandez pas.'));
  trigger.replaceWith(holder);
  holder.querySelector('button').focus();
}
