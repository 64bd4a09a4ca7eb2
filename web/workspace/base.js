// The view's common pieces: its configuration, a DOM helper, French in numbers, dates and words, and
// the parts every page is made of (sections, links, buttons, forms, lists that page on).
const config = JSON.parse(document.getElementById('workspace-config').textContent);
const main = document.getElementById('page');
const state = { transport: null, instanceId: null, received: 0, processed: 0, route: null, shows: 0, permissions: [], keyId: null, closed: false };
/** Each page's renderer (web/workspace/pages-*.js): (result, route) -> {title, node}. */
const PAGES = {};
const TITLES = {
  jour: 'Aujourd’hui', valider: 'À valider', fils: 'Fils', campagnes: 'Campagnes', performances: 'Performances',
  audiences: 'Audiences', contacts: 'Contacts', boites: 'Boîtes', domaines: 'Domaines', blocages: 'Blocages', espace: 'Espace',
};

// h('p', {class: 'x', onclick: f}, 'text', child): an element, its attributes and children (nested arrays, null skipped).
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

// ---- French: numbers and times never break across lines (non-breaking spaces), plurals by count.
const NBSP = '\u00a0';
const num = (n) => Number(n).toLocaleString('fr-FR');
const plural = (n, one, many) => `${num(n)}${NBSP}${n > 1 ? many : one}`;
const percent = (rate) => `${(rate * 100).toLocaleString('fr-FR', { maximumFractionDigits: 1 })}${NBSP}%`;
function size(bytes) {
  if (bytes < 1024) return plural(bytes, 'octet', 'octets');
  if (bytes < 1024 * 1024) return `${num(Math.ceil(bytes / 1024))}${NBSP}Ko`;
  return `${(bytes / 1024 / 1024).toLocaleString('fr-FR', { maximumFractionDigits: 1 })}${NBSP}Mo`;
}

const PARIS = { timeZone: 'Europe/Paris' };
const partsOf = (format, iso) => Object.fromEntries(format.formatToParts(new Date(iso)).map((p) => [p.type, p.value]));
const FULL = new Intl.DateTimeFormat('fr-FR', { ...PARIS, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', hour: 'numeric', minute: '2-digit' });
const DAY = new Intl.DateTimeFormat('fr-FR', { ...PARIS, weekday: 'long', day: 'numeric', month: 'long' });
const SHORT = new Intl.DateTimeFormat('fr-FR', { ...PARIS, day: 'numeric', month: 'short', year: 'numeric' });
const clock = (p) => `${Number(p.hour)}${NBSP}h${NBSP}${p.minute}`;
const thisYear = (p) => p.year === partsOf(FULL, new Date().toISOString()).year;
/** « mardi 24 novembre à 10 h 33 », the year when it is not this one; Paris time. */
function inWords(iso) {
  if (!iso) return '—';
  const p = partsOf(FULL, iso);
  return `${p.weekday} ${p.day}${NBSP}${p.month}${thisYear(p) ? '' : ` ${p.year}`} à ${clock(p)}`;
}
const time = (iso) => h('time', { datetime: iso }, inWords(iso));
const dayInWords = (day) => DAY.format(new Date(`${day}T12:00:00Z`));
/** A list row's date: the hour today, else the day (and the year when it is not this one). */
function shortDate(iso) {
  const p = partsOf(FULL, iso);
  if (DAY.format(new Date(iso)) === DAY.format(new Date())) return h('time', { datetime: iso }, clock(p));
  const s = partsOf(SHORT, iso);
  return h('time', { datetime: iso, title: inWords(iso) }, `${s.day}${NBSP}${s.month}${thisYear(p) ? '' : `${NBSP}${s.year}`}`);
}
const hourOf = (iso) => h('time', { datetime: iso }, clock(partsOf(FULL, iso)));

/** Every value a tool answers as a code, in words: no raw enum value on any page. */
const WORDS = {
  draft: 'brouillon', queued: 'en file', sending: 'en cours d’envoi', sent: 'parti', delivered: 'remis', bounced: 'rejeté',
  failed: 'échec', rejected: 'refusé', cancelled: 'annulé', received: 'reçu', active: 'active', suspended: 'suspendue',
  deleted: 'supprimée', pending: 'en attente', verified: 'vérifié', found: 'trouvé', absent: 'absent', different: 'différent',
  running: 'en cours', paused: 'en pause', finished: 'terminée', past_due: 'paiement en retard', none: 'aucun',
  claimed: 'en préparation', written: 'écrit', skipped: 'écarté', stopped: 'arrêté', replied: 'a répondu', unsubscribed: 'désinscrit',
  complained: 's’est plaint', duplicate: 'déjà écrit depuis ces boîtes', filtered: 'refusé par un filtre', removed: 'retiré de l’audience',
  suppressed: 'bloqué', dead_address: 'adresse morte', unresolved_placeholder: 'champ manquant', inbox_deleted: 'boîte supprimée',
  unsubscribe: 'désinscription', complaint: 'plainte', bounce: 'adresse morte', manual: 'blocage manuel',
  ownership: 'preuve de propriété', dkim: 'signature DKIM', spf: 'SPF', mx: 'réception (MX)', dmarc: 'DMARC',
};
const words = (value) => WORDS[value] || String(value).replace(/_/g, ' ');
const permissionWords = (permissions) => permissions.map((p) => config.permissionWords[p] || p).join(', ') || 'aucune';
const planWords = (plan) => (plan === 'none' ? 'aucune offre' : `offre ${plan.charAt(0).toUpperCase()}${plan.slice(1)}`);
const person = (name, address) => (name ? `${name} <${address}>` : address || 'expéditeur inconnu');
/** The inboxes' addresses by id, from a page's list_inboxes. */
const inboxesOf = (result) => new Map(((result.list_inboxes && result.list_inboxes.items) || []).map((inbox) => [inbox.id, inbox.address]));

// ---- the pieces of a page
const may = (...permissions) => permissions.some((p) => state.permissions.includes(p));
const refusal = (error) => h('p', { class: 'error', role: 'alert' }, error.message);
const empty = (text, ...next) => h('p', { class: 'empty' }, text, ...next);
const status = h('p', { id: 'status', role: 'status', class: 'status' });
function say(text, kind) {
  status.className = `status ${kind || ''}`;
  status.textContent = text;
}

/** A section with its heading (one heading per section, never the page's own), or the read's refusal in its place. */
function section(title, answer, render) {
  return h('section', { 'aria-label': title }, title ? h('h2', {}, title) : null, answer && answer.error ? refusal(answer.error) : render(answer));
}
/** A tool's answer or its refusal, without a section of its own. */
const answerOr = (answer, render) => (answer && answer.error ? refusal(answer.error) : render(answer));

/** A link to a route: a real address (the browser opens it in a new tab too), a local navigation on a plain click. */
function link(text, route, attrs) {
  return h('a', { ...attrs, href: hrefOf(route), onclick: (event) => {
    if (event.button || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigateLocally(route);
  } }, text);
}
const routeTo = (page, args) => ({ page, arguments: Object.fromEntries(Object.entries(args || {}).filter(([, v]) => v !== undefined && v !== null && v !== '')) });
const button = (text, onclick, kind, attrs) => h('button', { type: 'button', class: kind || null, onclick, ...attrs }, text);

/** An action: the tool's call, its French refusal, or `done` (a text, or a function of the answer), then the page read again. */
async function act(tool, args, done) {
  say('Un instant…');
  const answer = await call(tool, args);
  if (answer.error) {
    say(answer.error.message, 'error');
    return null;
  }
  await show(state.route);
  say(typeof done === 'function' ? done(answer.data) : done, 'ok');
  return answer.data;
}

/** A question before an irreversible action: the button becomes « Confirmer » / « Garder », by keyboard too. */
function confirmed(text, question, confirmText, run) {
  const holder = h('span', { class: 'confirm' });
  const ask = button(text, () => {
    const yes = button(confirmText, run, 'danger');
    holder.replaceChildren(h('span', { role: 'alert' }, question, ' '), yes, button('Garder', () => {
      holder.replaceChildren(ask);
      ask.focus();
    }, 'secondary'));
    yes.focus();
  }, 'secondary');
  holder.append(ask);
  return holder;
}

function form(label, fields, submitText, onsubmit, attrs) {
  const node = h('form', { 'aria-label': label, ...attrs, onsubmit: (event) => {
    event.preventDefault();
    onsubmit(new FormData(node));
  } }, fields, h('button', { type: 'submit' }, submitText));
  return node;
}
const field = (label, name, attrs, text) =>
  h('label', {}, label, h(attrs && attrs.multiline ? 'textarea' : 'input', { name, ...(attrs || {}), multiline: null }, text));
const checkbox = (label, name, checked) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name, checked }), ` ${label}`);
function select(label, name, options, value) {
  return h('label', {}, label, h('select', { name }, options.map(([v, text]) => h('option', { value: v, selected: v === (value ?? '') }, text))));
}

const figures = (pairs) =>
  h('dl', { class: 'figures' }, pairs.filter(Boolean).map(([term, value]) => [h('dt', {}, term), h('dd', {}, value === null || value === undefined ? '—' : value)]));

/** A bar of `part` over `whole`, with its words for everyone (the bar itself is decoration). */
function progress(label, part, whole) {
  return h('p', { class: 'progress' }, h('span', { class: 'track', 'aria-hidden': 'true' }, h('span', { class: 'bar', style: `width:${whole ? (100 * Math.min(part, whole)) / whole : 0}%` })), label);
}

/**
 * A list that pages on: its first page's items, then a « Plus » button while the tool answers a
 * next_cursor, each next page read with the same arguments and added to the same list.
 */
function paged(list, answer, itemsOf, render, more) {
  const node = h(list.tag || 'ul', { class: list.class, 'aria-label': list.label }, itemsOf(answer).map(render));
  const holder = h('div', { class: 'paged' }, node);
  const next = (cursor) => {
    if (!cursor) return;
    const plus = button(more.text, async () => {
      plus.disabled = true;
      const page = await call(more.tool, { ...more.args, cursor });
      if (page.error) {
        plus.disabled = false;
        return say(page.error.message, 'error');
      }
      const items = itemsOf(page.data).map(render);
      node.append(...items);
      plus.remove();
      say(`${plural(items.length, more.one, more.many)} de plus.`);
      next(page.data.next_cursor);
      const first = items[0] && items[0].querySelector('a, button, summary');
      if (first) first.focus();
    }, 'secondary more');
    holder.append(plus);
  };
  next(answer.next_cursor);
  return holder;
}
