'use strict';
/*
 * The workspace view (src/workspace/view.ts inlines this file). Every read and every action is a call
 * of a public tool: through the assistant's host (ext-apps App.callServerTool) inside an MCP App, or
 * POST /v1/<tool> in a browser. A refusal shows the tool's own French message.
 */
(() => {
  const config = JSON.parse(document.getElementById('workspace-config').textContent);
  const TITLES = {
    jour: 'Aujourd’hui', valider: 'À valider', fils: 'Fils', campagnes: 'Campagnes', performances: 'Performances',
    audiences: 'Audiences', contacts: 'Contacts', boites: 'Boîtes', domaines: 'Domaines', blocages: 'Blocages', espace: 'Espace',
  };
  const main = document.getElementById('page');
  const state = { transport: null, instanceId: null, received: 0, processed: 0, route: null, shows: 0, permissions: [], closed: false };

  // ---- small DOM helper: h('p', {class: 'x'}, 'text', child)
  function h(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? '' : String(value));
    }
    for (const child of children.flat(Infinity)) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  // ---- dates in Paris time, in words: « lundi 23 novembre à 9 h 12 »
  const dateParts = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', weekday: 'long', day: 'numeric', month: 'long', hour: 'numeric', minute: '2-digit' });
  function inWords(iso) {
    if (!iso) return '—';
    const part = Object.fromEntries(dateParts.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
    return `${part.weekday} ${part.day} ${part.month} à ${Number(part.hour)} h ${part.minute}`;
  }
  const time = (iso) => h('time', { datetime: iso }, inWords(iso));
  const hourParts = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', hour: 'numeric', minute: '2-digit' });
  function hourOf(iso) {
    const part = Object.fromEntries(hourParts.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
    return h('time', { datetime: iso }, `${Number(part.hour)} h ${part.minute}`);
  }
  const dayParts = new Intl.DateTimeFormat('fr-FR', { timeZone: 'Europe/Paris', weekday: 'long', day: 'numeric', month: 'long' });

  // ---- transports
  function errorOfResult(result) {
    try {
      return JSON.parse(result.content[1].text).error;
    } catch {
      return { code: 'internal', message: (result.content && result.content[0] && result.content[0].text) || 'Erreur du service.' };
    }
  }

  function mcpTransport() {
    const app = new McpApps.App({ name: 'mailbox-workspace', version: '1.0.0' });
    return {
      app,
      async call(name, args) {
        try {
          const result = await app.callServerTool({ name, arguments: args });
          return result.isError ? { error: errorOfResult(result) } : { data: result.structuredContent };
        } catch (error) {
          // A protocol refusal (an unknown tool): the server's French message, without the SDK's prefix.
          return { error: { code: 'not_found', message: String(error.message || error).replace(/^MCP error -?\d+: /, '') } };
        }
      },
    };
  }

  function webTransport(key) {
    return {
      async call(name, args, options) {
        const headers = { 'content-type': 'application/json', 'x-mailbox-view': 'workspace' };
        if (key) headers.authorization = `Bearer ${key}`;
        try {
          const response = await fetch(`/v1/${name}`, { method: 'POST', headers, body: JSON.stringify(args), credentials: 'same-origin', keepalive: Boolean(options && options.keepalive) });
          const body = await response.json().catch(() => ({}));
          return response.ok ? { data: body } : { error: body.error || { code: 'internal', message: 'Erreur du service.' } };
        } catch {
          return { error: { code: 'unavailable', message: 'Le service ne répond pas. Vérifiez la connexion puis réessayez.' } };
        }
      },
    };
  }

  const call = (name, args, options) => state.transport.call(name, args || {}, options);

  // ---- the page table (src/workspace/pages.ts): which tools read a route
  function readsOf(route) {
    const given = (name) => name !== undefined && route.arguments[name] !== undefined;
    return config.pages[route.page]
      .filter((read) => (!read.when || given(read.when)) && (!read.unless || !given(read.unless)))
      .map((read) => ({
        tool: read.tool,
        arguments: Object.fromEntries(Object.entries(read.pass || {}).filter(([, from]) => given(from)).map(([param, from]) => [param, route.arguments[from]])),
      }));
  }

  async function readRoute(route) {
    const reads = await Promise.all(readsOf(route).map(async (read) => {
      const answer = await call(read.tool, read.arguments);
      return [read.tool, answer.error ? { error: answer.error } : answer.data];
    }));
    return Object.fromEntries(reads);
  }

  // ---- common pieces
  const refusal = (error) => h('p', { class: 'error', role: 'alert' }, error.message);
  const may = (...permissions) => permissions.some((p) => state.permissions.includes(p));
  const empty = (text) => h('p', { class: 'empty' }, text);
  const status = h('p', { id: 'status', role: 'status', class: 'status' });

  /** A tool's answer, or its refusal shown in place of the section. */
  function section(title, answer, render) {
    return h('section', { 'aria-label': title }, h('h2', {}, title), answer && answer.error ? refusal(answer.error) : render(answer));
  }

  function link(text, route) {
    return h('a', { href: `#${route.page}`, onclick: (event) => { event.preventDefault(); navigateLocally(route); } }, text);
  }

  /** An action: the tool's call, its French refusal or `done`, then the page read again. */
  async function act(tool, args, done) {
    status.className = 'status';
    status.textContent = 'Un instant…';
    const answer = await call(tool, args);
    if (answer.error) {
      status.className = 'status error';
      status.textContent = answer.error.message;
      return null;
    }
    await show(state.route);
    status.className = 'status ok';
    status.textContent = done;
    return answer.data;
  }

  const button = (text, onclick, kind) => h('button', { type: 'button', class: kind || '', onclick }, text);

  function form(label, fields, submitText, onsubmit) {
    const node = h('form', { 'aria-label': label, onsubmit: (event) => { event.preventDefault(); onsubmit(new FormData(node)); } },
      fields, h('button', { type: 'submit' }, submitText));
    return node;
  }

  const field = (label, name, attrs, text) => h('label', {}, label, h(attrs && attrs.multiline ? 'textarea' : 'input', { name, ...(attrs || {}), multiline: null }, text));

  function figures(pairs) {
    return h('dl', { class: 'figures' }, pairs.map(([term, value]) => [h('dt', {}, term), h('dd', {}, value === null || value === undefined ? '—' : value)]));
  }

  // ---- pages
  const STATUS_WORDS = {
    draft: 'brouillon', queued: 'en file', sending: 'en cours d’envoi', sent: 'parti', delivered: 'remis', bounced: 'rejeté', failed: 'échec',
    rejected: 'refusé', cancelled: 'annulé', received: 'reçu', active: 'active', suspended: 'suspendue', deleted: 'supprimée',
    pending: 'en attente', verified: 'vérifié', found: 'trouvé', absent: 'absent', different: 'différent', running: 'en cours', paused: 'en pause', finished: 'terminée',
    // Where a contact stands in a campaign (get_contact), and why it was skipped or stopped.
    claimed: 'en préparation', written: 'écrit', skipped: 'écarté', stopped: 'arrêté', replied: 'a répondu', unsubscribed: 'désinscrit',
    complained: 's’est plaint', duplicate: 'déjà écrit depuis ces boîtes', filtered: 'refusé par un filtre', removed: 'retiré de l’audience',
    suppressed: 'bloqué', dead_address: 'adresse morte', unresolved_placeholder: 'champ manquant',
  };
  const words = (value) => STATUS_WORDS[value] || value;

  const PAGES = {
    jour(result) {
      const day = result.list_events && result.list_events.day ? `du ${dayParts.format(new Date(`${result.list_events.day}T12:00:00Z`))}` : 'du jour';
      return section(`Journal ${day}`, result.list_events, (data) =>
        data.events.length
          ? h('ol', { class: 'journal' }, data.events.map((line) => h('li', {}, hourOf(line.at), ' ', line.text, h('span', { class: 'who' }, ` — ${line.actor.name}`))))
          : empty('Rien encore aujourd’hui.'));
    },

    valider(result) {
      return section('Brouillons à valider', result.list_drafts, (data) =>
        data.items.length ? h('ul', { class: 'cards' }, data.items.map(draftCard)) : empty('Aucun brouillon n’attend de validation.'));
    },

    fils(result) {
      if (result.get_thread) {
        return section('Fil', result.get_thread, (data) => h('div', {},
          h('h3', {}, data.thread.subject || '(sans objet)'),
          h('p', {}, `Avec ${data.thread.contact_name || data.thread.contact || '—'} · ${data.thread.message_count} message(s) · étiquettes : ${data.thread.labels.join(', ') || 'aucune'}`),
          h('ol', { class: 'messages' }, data.messages.map((m) => h('li', { class: m.direction },
            h('p', { class: 'meta' }, `${m.direction === 'inbound' ? 'Reçu de' : 'Envoyé à'} ${m.direction === 'inbound' ? m.from : m.to} · `, time(m.received_at || m.sent_at || m.created_at), ` · ${words(m.status)}`),
            h('p', { class: 'subject' }, m.subject),
            h('pre', {}, m.text),
            (m.attachments || []).length ? h('ul', { class: 'attachments', 'aria-label': 'Pièces jointes' }, m.attachments.map((a) => h('li', {}, `${a.filename} (${Math.ceil(a.size / 1024)} Ko)`))) : null))),
          may('send', 'approve') ? form('Classer le fil', [field('Étiquettes (séparées par des virgules)', 'labels', { value: data.thread.labels.join(', ') }),
            h('label', {}, h('input', { type: 'checkbox', name: 'archived', checked: data.thread.archived }), ' Archivé')], 'Classer',
          (values) => act('classify_thread', { thread_id: data.thread.id, labels: String(values.get('labels')).split(',').map((l) => l.trim()).filter(Boolean), archived: values.get('archived') === 'on' }, 'Fil classé.')) : null,
          h('p', {}, link('← Tous les fils', { page: 'fils', arguments: {} }))));
      }
      return section('Fils récents', result.list_threads, (data) =>
        data.items.length
          ? h('ul', { class: 'list' }, data.items.map((thread) => h('li', {},
            link(thread.subject || '(sans objet)', { page: 'fils', arguments: { thread_id: thread.id } }),
            ` — ${thread.contact || '—'}, `, time(thread.last_message_at), thread.unread ? h('strong', {}, ' · non lu') : null)))
          : empty('Aucun fil.'));
    },

    campagnes(result) {
      return section('Campagnes', result.list_campaigns, (data) =>
        (data.items || []).length
          ? h('ul', { class: 'cards' }, data.items.map((c) => h('li', {},
            h('h3', {}, c.name), h('p', {}, `État : ${words(c.status)}`),
            h('p', {}, link('Voir les performances', { page: 'performances', arguments: { campaign_id: c.id } })),
            c.status !== 'running' && may('approve') ? button('Lancer', () => act('start_campaign', { campaign_id: c.id }, 'Campagne lancée.')) : null,
            c.status === 'running' && may('send', 'approve') ? button('Mettre en pause', () => act('pause_campaign', { campaign_id: c.id }, 'Campagne en pause.'), 'secondary') : null)))
          : empty('Aucune campagne.'));
    },

    performances(result) {
      if (result.campaign_status) {
        return section('Performances', result.campaign_status, (data) => {
          const counts = data.figures;
          const names = { recipients: 'Destinataires', waiting: 'Pas encore écrits', queued: 'En file', sent: 'Partis', delivered: 'Remis', bounced: 'Rejetés', replied: 'Réponses', unsubscribed: 'Désinscrits', complained: 'Plaintes', follow_ups_sent: 'Relances parties' };
          const days = counts.days || [];
          const most = Math.max(1, ...days.map((d) => d.sent));
          return h('div', {},
            h('h3', {}, `${data.campaign.name} — ${words(data.campaign.status)}`),
            figures(Object.keys(names).filter((k) => typeof counts[k] === 'number').map((k) => [names[k], counts[k]])),
            days.length ? h('figure', {}, h('figcaption', {}, 'Messages partis et réponses, jour par jour'),
              h('ul', { class: 'chart' }, days.map((d) => h('li', {}, h('span', { class: 'day' }, dayParts.format(new Date(`${d.day}T12:00:00Z`))),
                h('span', { class: 'bar', style: `width:${(100 * d.sent) / most}%`, 'aria-hidden': 'true' }), h('span', {}, `${d.sent} partis, ${d.replied} réponses`))))) : null);
        });
      }
      return PAGES.campagnes(result);
    },

    audiences(result) {
      return h('div', {},
        section('Audiences', result.list_audiences, (data) =>
          (data.items || []).length
            ? h('ul', { class: 'list' }, data.items.map((a) => h('li', {}, link(a.name, { page: 'audiences', arguments: { audience_id: a.id } }), typeof a.contact_count === 'number' ? ` — ${a.contact_count} contact(s)` : '')))
            : empty('Aucune audience.')),
        result.list_contacts ? contactList(result.list_contacts) : null,
        may('send', 'approve') ? form('Créer une audience', [field('Nom', 'name', { required: true, maxlength: 100 })], 'Créer', (values) => act('create_audience', { name: values.get('name') }, 'Audience créée.')) : null);
    },

    contacts(result) {
      return h('div', {},
        form('Rechercher un contact', [field('Adresse ou nom', 'query', { type: 'search', required: true })], 'Rechercher', (values) => navigateLocally({ page: 'contacts', arguments: { query: String(values.get('query')) } })),
        result.get_contact ? section('Fiche du contact', result.get_contact, (data) => h('div', {},
          figures([
            ['Adresse', data.contact.email], ['Nom', data.contact.name],
            ['Audiences', data.audiences.map((a) => a.name).join(', ') || 'aucune'],
            ['Bloqué', data.suppression ? `oui (${data.suppression.reason}, depuis le ${inWords(data.suppression.since)})` : 'non'],
          ]),
          data.campaigns.length ? h('ul', { class: 'list', 'aria-label': 'Campagnes' }, data.campaigns.map((c) => h('li', {},
            link(c.name, { page: 'performances', arguments: { campaign_id: c.campaign_id } }), ` — ${words(c.state)}${c.reason ? ` (${words(c.reason)})` : ''}, ${c.step ? `relance ${c.step}` : 'premier message'}`))) : null,
          data.threads.length ? h('ul', { class: 'list', 'aria-label': 'Fils' }, data.threads.map((th) => h('li', {},
            link(th.subject || '(sans objet)', { page: 'fils', arguments: { thread_id: th.thread_id } }), ', ', time(th.last_message_at)))) : null)) : null,
        result.list_contacts ? contactList(result.list_contacts) : null);
    },

    boites(result) {
      return section('Boîtes', result.list_inboxes, (data) =>
        data.items.length ? h('ul', { class: 'cards' }, data.items.map((inbox) => h('li', {},
          h('h3', {}, inbox.address),
          figures([
            ['État', words(inbox.status) + (inbox.status_reason ? ` (${inbox.status_reason})` : '')],
            ['Quota du jour', `${inbox.quota.sent_today} envoyé(s) sur ${inbox.quota.daily_quota}`],
            ['Montée en charge', inbox.warmup.finished ? 'terminée' : `semaine ${inbox.warmup.week}, palier de ${inbox.warmup.step} par jour`],
            ['Fenêtre d’envoi', inbox.send_window],
            ['Prochain départ', inbox.next_send_at ? inWords(inbox.next_send_at) : '—'],
            ['Brouillons, en file', `${inbox.drafts}, ${inbox.queued}`],
          ]),
          inbox.status === 'suspended'
            ? (inbox.suspension && inbox.suspension.review === 'requested'
              ? h('p', {}, 'Revue demandée ', time(inbox.suspension.requested_at), '.')
              : may('approve') ? button('Demander une revue', () => act('request_inbox_review', { inbox_id: inbox.id }, 'Revue demandée.')) : null)
            : null))) : empty('Aucune boîte.'));
    },

    domaines(result) {
      return section('Domaines', result.list_domains, (data) =>
        data.domains.length ? h('ul', { class: 'cards' }, data.domains.map((domain) => h('li', {},
          h('h3', {}, `${domain.domain} — ${words(domain.status)}`),
          h('table', {}, h('caption', {}, `Enregistrements DNS de ${domain.domain}`),
            h('thead', {}, h('tr', {}, ['Nom', 'Type', 'Valeur à publier', 'État'].map((t) => h('th', { scope: 'col' }, t)))),
            h('tbody', {}, domain.records.map((r) => h('tr', {}, h('td', {}, r.name), h('td', {}, r.type), h('td', {}, h('code', {}, r.value)), h('td', {}, words(r.state)))))),
          may('manage_inboxes') ? button('Vérifier maintenant', () => act('verify_domain', { domain: domain.domain }, 'Domaine vérifié.')) : null))) : empty('Aucun domaine enregistré.'));
    },

    blocages(result) {
      const REASONS = { unsubscribe: 'désinscription', complaint: 'plainte', bounce: 'adresse morte', manual: 'blocage manuel' };
      return h('div', {},
        section('Adresses et domaines bloqués', result.list_suppressions, (data) =>
          data.items.length ? h('ul', { class: 'list' }, data.items.map((entry) => h('li', {},
            h('strong', {}, entry.value), ` — ${REASONS[entry.reason] || entry.reason}, `, time(entry.created_at), ' ',
            may('approve') ? button('Retirer', () => act('remove_suppression', { value: entry.value }, 'Blocage retiré.'), 'secondary') : null))) : empty('Aucun blocage.')),
        may('send', 'approve') ? form('Bloquer une adresse ou un domaine', [field('Adresse ou @domaine', 'value', { required: true, minlength: 3 }), field('Motif (facultatif)', 'reason', { maxlength: 200 })], 'Bloquer',
          (values) => act('add_suppression', { value: values.get('value'), ...(values.get('reason') ? { reason: values.get('reason') } : {}) }, 'Blocage ajouté.')) : null);
    },

    espace(result) {
      return h('div', {},
        section('L’espace', result.get_settings, (data) => figures([
          ['Nom', data.space.name], ['Vérifié', data.space.verified ? 'oui' : 'non'], ['Humain', data.space.human_email],
          ['Offre', data.space.plan], ['Validation humaine imposée', data.space.approval_required ? 'oui' : 'non'], ['Fenêtre d’envoi', data.space.send_window],
          ['Adresse MCP', data.mcp_url],
        ])),
        section('Abonnement', result.billing_status, (data) => figures([['Offre', data.plan], ['État', data.status], ['Fin de période', data.current_period_end ? inWords(data.current_period_end) : '—'], ['Boîtes', `${data.inboxes_used} sur ${data.inbox_cap}`]])),
        section('Clés et connexions', result.list_keys, (data) => h('ul', { class: 'list' }, data.keys.map((key) => h('li', {},
          h('strong', {}, key.name), ` (${key.kind === 'connection' ? 'connexion' : 'clé'} ${key.prefix}…) — ${key.permissions.join(', ')}; dernier usage : `, key.last_used_at ? time(key.last_used_at) : 'jamais')))));
    },
  };

  function draftCard(message) {
    const card = h('li', {},
      h('p', { class: 'meta' }, `De ${message.from} à ${message.to} · écrit `, time(message.created_at)),
      h('h3', {}, message.subject || '(sans objet)'),
      h('pre', {}, message.text));
    const actions = h('p', { class: 'actions' },
      may('approve') ? button('Approuver', () => act('approve_message', { message_id: message.id, revision: message.revision }, 'Message approuvé : il part dans la fenêtre d’envoi.')) : null,
      may('send', 'approve') ? button('Modifier', () => card.replaceWith(editForm(message)), 'secondary') : null,
      may('send', 'approve') ? button('Annuler', () => act('cancel_message', { message_id: message.id }, 'Brouillon annulé.'), 'secondary') : null);
    card.append(actions);
    return card;
  }

  function editForm(message) {
    return h('li', {}, form(`Modifier le brouillon ${message.subject}`, [
      field('Objet', 'subject', { value: message.subject, maxlength: 300, required: true }),
      field('Texte', 'text', { multiline: true, rows: 8 }, message.text),
    ], 'Enregistrer', (values) => act('update_draft', { message_id: message.id, subject: values.get('subject'), text: values.get('text') }, 'Brouillon modifié.')));
  }

  function contactList(answer) {
    return section('Contacts', answer, (data) =>
      (data.items || []).length
        ? h('ul', { class: 'list' }, data.items.map((c) => h('li', {}, link(c.email, { page: 'contacts', arguments: { email: c.email } }), c.name ? ` — ${c.name}` : '')))
        : empty('Aucun contact.'));
  }

  // ---- showing a route
  function renderNav() {
    const nav = document.getElementById('nav');
    nav.replaceChildren(...Object.entries(TITLES).map(([page, title]) =>
      h('li', {}, h('a', { href: `#${page}`, 'data-page': page, onclick: (event) => { event.preventDefault(); navigateLocally({ page, arguments: {} }); } }, title))));
  }

  /** Shows a route; of two shows under way, the one begun last takes the page, whichever reads faster. */
  async function show(route, result) {
    const turn = ++state.shows;
    state.route = route;
    const data = result || (await readRoute(route));
    if (turn !== state.shows) return;
    status.className = 'status';
    status.textContent = '';
    for (const a of document.querySelectorAll('#nav a')) {
      if (a.dataset.page === route.page) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    main.replaceChildren(h('h1', {}, TITLES[route.page]), status, PAGES[route.page](data));
    document.title = `${TITLES[route.page]} — Mailbox`;
  }

  /** A gesture of the person: a barrier in the instance (the assistant's older commands are void), then the page read here. */
  async function navigateLocally(route) {
    if (state.instanceId) {
      const answer = await call('workspace_events', { instance_id: state.instanceId, after_sequence: state.received, local_navigation: true });
      if (answer.data) state.received = Math.max(state.received, answer.data.sequence);
    }
    await show(route);
    main.focus();
  }

  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  /** The assistant's commands: one call waiting at a time, the latest page applied, then acknowledged. */
  async function follow() {
    while (!state.closed) {
      const answer = await call('workspace_events', { instance_id: state.instanceId, after_sequence: state.received, ack_sequence: state.processed });
      if (answer.error) {
        if (answer.error.code === 'workspace_expired' || answer.error.code === 'access_changed') return ended(answer.error);
        await pause(answer.error.hint && answer.error.hint.retry_after_seconds ? answer.error.hint.retry_after_seconds * 1000 : 3000);
        continue;
      }
      const data = answer.data;
      if (data.closed) return;
      const command = data._navigation;
      if (command && command.sequence > state.received) {
        state.received = command.sequence;
        await show(command.route, command.result);
        state.processed = command.sequence;
      } else {
        state.received = Math.max(state.received, data.sequence);
      }
    }
  }

  async function ended(error) {
    if (config.mode === 'web') {
      // Reopened on the page shown; a gesture made meanwhile keeps its page (start shows nothing then).
      const shows = state.shows;
      const reopened = await call('open_workspace', state.route || {});
      if (reopened.data) return start(reopened.data, shows);
    }
    status.className = 'status error';
    status.textContent = error.message;
    main.prepend(status);
  }

  /** `shows`: for an instance reopened after the last one ended, how many shows the page had then. */
  async function start(opened, shows = null) {
    state.instanceId = opened.instance_id;
    state.received = opened.sequence;
    state.processed = opened.sequence;
    const settings = await call('get_settings', {});
    if (settings.data) state.permissions = settings.data.key.permissions;
    if (shows === null || shows === state.shows) await show(opened.route);
    follow();
  }

  function close() {
    if (!state.instanceId || state.closed) return;
    state.closed = true;
    call('workspace_events', { instance_id: state.instanceId, after_sequence: state.received, close: true }, { keepalive: true });
  }

  // ---- standalone: signed in by the session cookie, or by a key kept for this tab only
  function signInPage() {
    main.replaceChildren(h('h1', {}, 'Connexion'),
      h('p', {}, h('a', { href: `/signin?next=${encodeURIComponent('/workspace' + location.search)}` }, 'Recevoir un code par e-mail (humain de l’espace)')),
      form('Se connecter avec une clé', [field('Clé d’API', 'key', { type: 'password', required: true, autocomplete: 'off' })], 'Ouvrir', (values) => {
        sessionStorage.setItem('mailbox-key', String(values.get('key')));
        location.reload();
      }));
  }

  async function bootWeb() {
    state.transport = webTransport(sessionStorage.getItem('mailbox-key'));
    const query = new URLSearchParams(location.search);
    const page = TITLES[query.get('page')] ? query.get('page') : 'jour';
    const opened = await call('open_workspace', { page });
    if (opened.error && opened.error.code === 'unauthorized') {
      sessionStorage.removeItem('mailbox-key');
      return signInPage();
    }
    if (opened.error) return main.replaceChildren(refusal(opened.error));
    window.addEventListener('pagehide', close);
    start(opened.data);
  }

  async function bootMcp() {
    const transport = mcpTransport();
    state.transport = transport;
    transport.app.ontoolresult = (params) => {
      const opened = params.structuredContent;
      if (opened && opened.instance_id && !state.instanceId) start(opened);
    };
    transport.app.onteardown = async () => {
      close();
      return {};
    };
    await transport.app.connect();
  }

  renderNav();
  (config.mode === 'mcp' ? bootMcp() : bootWeb()).catch((error) => main.replaceChildren(refusal({ message: `La vue n’a pas pu démarrer : ${error.message}` })));
})();
