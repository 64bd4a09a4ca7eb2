// Campaigns and their performances, audiences, contacts.

const CAMPAIGN_STATES = [['', 'Tous les états'], ['running', 'En cours'], ['paused', 'En pause'], ['draft', 'Brouillon'], ['finished', 'Terminée'], ['cancelled', 'Annulée']];
const campaignState = (status) => (CAMPAIGN_STATES.find(([value]) => value === status) || [, words(status)])[1];
/** Contacts written to: those whose latest message left (delivered, bounced or failed since). */
const written = (f) => f.sent + f.delivered + f.bounced + f.failed;

/** Start or resume, pause: what the person may do with a campaign in its state. */
function campaignActions(campaign) {
  const done = (verb) => (data) => `Campagne « ${data.campaign.name} » ${verb}.`;
  return h('p', { class: 'actions' },
    ['draft', 'paused'].includes(campaign.status) && may('approve')
      ? button(campaign.status === 'draft' ? 'Lancer la campagne' : 'Reprendre la campagne', () => act('start_campaign', { campaign_id: campaign.id }, done(campaign.status === 'draft' ? 'lancée' : 'reprise'))) : null,
    campaign.status === 'running' && may('send', 'approve')
      ? button('Mettre en pause', () => act('pause_campaign', { campaign_id: campaign.id }, done('en pause : aucun de ses messages ne part')), 'secondary') : null);
}

/** Progress, rates and the next departure of a campaign's figures (campaign_status). */
function campaignSummary(f, campaign) {
  return h('div', { class: 'summary' },
    progress(`${plural(written(f), 'contact écrit', 'contacts écrits')} sur ${num(f.recipients)}`, written(f), f.recipients),
    figures([
      ['Réponses', `${percent(f.rates.reply)} (${num(f.replied)})`],
      ['Rebonds', `${percent(f.rates.bounce)} (${num(f.bounced)})`],
      ['Désinscriptions', `${percent(f.rates.unsubscribe)} (${num(f.unsubscribed)})`],
      ['Prochain départ', f.next_send_at ? inWords(f.next_send_at) : campaign.status === 'running' ? 'aucun message en file pour l’instant' : 'aucun : la campagne n’est pas en cours'],
    ]));
}

/** A campaign's figures read once its card shows (one campaign_status each). */
function figuresOf(campaign, render) {
  const holder = h('div', { class: 'later' }, 'Lecture des chiffres…');
  call('campaign_status', { campaign_id: campaign.id }).then((answer) => holder.replaceChildren(answer.error ? refusal(answer.error) : render(answer.data.figures)));
  return holder;
}

function stateFilter(route) {
  return form('Filtrer les campagnes', [select('État', 'status', CAMPAIGN_STATES, route.arguments.status)], 'Filtrer',
    (values) => navigateLocally(routeTo(route.page, { status: values.get('status') })));
}

const noCampaign = (route) => route.arguments.status
  ? empty('Aucune campagne dans cet état. ', link('Voir toutes les campagnes', routeTo(route.page)), '.')
  : empty('Aucune campagne. Un agent en prépare une (create_campaign) sur une audience de contacts ; vous la lancez ensuite ici. ', link('Voir les audiences', routeTo('audiences')), '.');

PAGES.campagnes = (result, route) => {
  if (route.arguments.campaign_id) return campaignPage(result.campaign_status, inboxesOf(result));
  return {
    title: TITLES.campagnes,
    node: h('div', {}, stateFilter(route), answerOr(result.list_campaigns, (data) => data.items.length
      ? h('ul', { class: 'cards' }, data.items.map((c) => h('li', {},
        h('h2', {}, link(c.name, routeTo('campagnes', { campaign_id: c.id }))),
        h('p', { class: 'meta' }, `${campaignState(c.status)} · créée `, time(c.created_at), c.started_at ? [', lancée ', time(c.started_at)] : ''),
        figuresOf(c, (f) => campaignSummary(f, c)),
        campaignActions(c))))
      : noCampaign(route))),
  };
};

/** Sent and replied, day by day: a bar per day and its numbers in words. */
function dayChart(days) {
  if (!days.length) return empty('Aucun envoi pour l’instant : le graphique jour par jour se remplira avec les premiers départs.');
  const most = Math.max(1, ...days.map((d) => d.sent));
  return h('figure', { class: 'chart' }, h('figcaption', {}, 'Messages partis et réponses, jour par jour'),
    h('ul', {}, days.map((d) => h('li', {}, h('span', { class: 'day' }, dayInWords(d.day)),
      h('span', { class: 'track', 'aria-hidden': 'true' }, h('span', { class: 'bar', style: `width:${(100 * d.sent) / most}%` })),
      h('span', {}, `${plural(d.sent, 'parti', 'partis')}, ${plural(d.replied, 'réponse', 'réponses')}`)))));
}

const COUNT_NAMES = [['waiting', 'Pas encore écrits'], ['drafts', 'Brouillons à valider'], ['queued', 'En file'], ['sent', 'Partis'], ['delivered', 'Remis'],
  ['bounced', 'Rejetés'], ['failed', 'Non remis'], ['cancelled', 'Annulés'], ['replied', 'Ont répondu'], ['unsubscribed', 'Désinscrits'], ['complained', 'Plaintes'],
  ['follow_ups_sent', 'Relances parties']];

function campaignPage(answer, inboxes) {
  if (answer.error) return { title: TITLES.campagnes, node: h('div', {}, refusal(answer.error), h('p', {}, link('Toutes les campagnes', routeTo('campagnes')))) };
  const { campaign, figures: f } = answer;
  const skipped = Object.entries(f.skipped).filter(([, n]) => n).map(([reason, n]) => `${num(n)} ${words(reason)}`);
  return {
    title: campaign.name,
    node: h('div', {},
      h('p', { class: 'lead' }, link('← Toutes les campagnes', routeTo('campagnes')), ' · ', `${campaignState(campaign.status)}, objet « ${campaign.subject} », depuis ${campaign.inbox_ids.map((id) => inboxes.get(id) || id).join(', ')}`),
      campaignSummary(f, campaign),
      campaignActions(campaign),
      section('Contacts', null, () => h('div', {},
        figures(COUNT_NAMES.filter(([key]) => f[key]).map(([key, name]) => [name, num(f[key])]).concat(skipped.length ? [['Écartés', skipped.join(', ')]] : [])),
        h('p', {}, link('Voir les contacts de son audience et leurs fils', routeTo('audiences', { audience_id: campaign.audience_id }))))),
      section('Jour par jour', null, () => dayChart(f.days)),
      f.per_inbox.length > 1 ? section('Par boîte', null, () => h('table', { class: 'stack' }, h('caption', {}, 'Contacts par boîte d’envoi'),
        h('thead', {}, h('tr', {}, ['Boîte', 'Écrits', 'Réponses', 'Rebonds'].map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, f.per_inbox.map((row) => h('tr', {}, h('th', { scope: 'row', 'data-label': 'Boîte' }, inboxes.get(row.inbox_id) || row.inbox_id),
          h('td', { 'data-label': 'Écrits' }, num(written(row))), h('td', { 'data-label': 'Réponses' }, num(row.replied)), h('td', { 'data-label': 'Rebonds' }, num(row.bounced))))))) : null),
  };
}

/** Every campaign's figures side by side, and their departures and answers added up day by day. */
function performancesTable(campaigns) {
  const chart = h('div', { class: 'later' }, 'Lecture des chiffres…');
  const rows = campaigns.map((c) => {
    const row = h('tr', {}, h('th', { scope: 'row', 'data-label': 'Campagne' }, link(c.name, routeTo('campagnes', { campaign_id: c.id }))),
      h('td', { 'data-label': 'État' }, campaignState(c.status)), h('td', { colspan: 5 }, 'Lecture des chiffres…'));
    const read = call('campaign_status', { campaign_id: c.id }).then((answer) => {
      if (answer.error) return row.lastChild.replaceChildren(refusal(answer.error));
      const f = answer.data.figures;
      row.lastChild.replaceWith(...[
        ['Écrits', `${num(written(f))} sur ${num(f.recipients)}`], ['Réponses', percent(f.rates.reply)], ['Rebonds', percent(f.rates.bounce)],
        ['Désinscriptions', percent(f.rates.unsubscribe)], ['Prochain départ', f.next_send_at ? inWords(f.next_send_at) : '—'],
      ].map(([label, value]) => h('td', { 'data-label': label }, value)));
      return f.days;
    });
    return { row, read };
  });
  Promise.all(rows.map((r) => r.read)).then((all) => {
    const days = new Map();
    for (const d of all.flat().filter(Boolean)) {
      const sum = days.get(d.day) || { day: d.day, sent: 0, replied: 0 };
      days.set(d.day, { ...sum, sent: sum.sent + d.sent, replied: sum.replied + d.replied });
    }
    chart.replaceChildren(dayChart([...days.values()].sort((a, b) => (a.day < b.day ? -1 : 1))));
  });
  return h('div', {},
    h('table', { class: 'stack' }, h('caption', {}, 'Chaque campagne : contacts écrits, réponses, rebonds, désinscriptions, prochain départ'),
      h('thead', {}, h('tr', {}, ['Campagne', 'État', 'Écrits', 'Réponses', 'Rebonds', 'Désinscriptions', 'Prochain départ'].map((t) => h('th', { scope: 'col' }, t)))),
      h('tbody', {}, rows.map((r) => r.row))),
    section('Toutes campagnes, jour par jour', null, () => chart));
}

PAGES.performances = (result, route) => {
  if (route.arguments.campaign_id) return campaignPage(result.campaign_status, inboxesOf(result));
  return {
    title: TITLES.performances,
    node: h('div', {}, stateFilter(route), answerOr(result.list_campaigns, (data) => (data.items.length ? performancesTable(data.items) : noCampaign(route)))),
  };
};

// ---- Audiences and contacts
function contactList(answer, more) {
  return answerOr(answer, (data) => data.items.length
    ? paged({ class: 'list', label: 'Contacts' }, data, (d) => d.items, (c) => h('li', {}, link(c.name ? person(c.name, c.email) : c.email, routeTo('contacts', { email: c.email }))),
      { ...more, text: 'Afficher plus de contacts', one: 'contact', many: 'contacts' })
    : empty('Aucun contact ici. Un agent en ajoute avec add_contacts.'));
}

PAGES.audiences = (result, route) => {
  const id = route.arguments.audience_id;
  const audiences = result.list_audiences && !result.list_audiences.error ? result.list_audiences.items : [];
  const audience = id && audiences.find((a) => a.id === id);
  if (id) {
    return {
      title: audience ? audience.name : TITLES.audiences,
      node: h('div', {}, h('p', { class: 'lead' }, link('← Toutes les audiences', routeTo('audiences')), audience ? ` · ${plural(audience.contact_count, 'contact', 'contacts')}` : ''),
        contactList(result.list_contacts, { tool: 'list_contacts', args: readOf(route, 'list_contacts').arguments })),
    };
  }
  return {
    title: TITLES.audiences,
    node: h('div', {},
      answerOr(result.list_audiences, (data) => data.items.length
        ? h('ul', { class: 'list' }, data.items.map((a) => h('li', {}, link(a.name, routeTo('audiences', { audience_id: a.id })), ` — ${plural(a.contact_count, 'contact', 'contacts')}`)))
        : empty('Aucune audience. Créez-en une ci-dessous ; un agent y ajoute ensuite les contacts (add_contacts).')),
      may('send', 'approve') ? form('Créer une audience', [field('Nom de la nouvelle audience', 'name', { required: true, maxlength: 100 })], 'Créer',
        (values) => act('create_audience', { name: values.get('name') }, 'Audience créée.')) : null),
  };
};

function contactSheet(data) {
  const c = data.contact;
  return h('div', {},
    h('p', { class: 'lead' }, link('← Tous les contacts', routeTo('contacts'))),
    figures([
      ['Adresse', c.email], ['Nom', c.name],
      ...Object.entries(c.fields).map(([name, value]) => [name, value]),
      ['Audiences', data.audiences.length ? data.audiences.map((a, i) => [i ? ', ' : '', link(a.name, routeTo('audiences', { audience_id: a.id }))]) : 'aucune'],
      ['Bloqué', data.suppression ? [`oui (${words(data.suppression.reason)}) depuis le `, time(data.suppression.since)] : data.dead_address ? 'adresse morte (rebond définitif)' : 'non'],
    ]),
    section('Campagnes', null, () => data.campaigns.length
      ? h('ul', { class: 'list' }, data.campaigns.map((k) => h('li', {}, link(k.name, routeTo('campagnes', { campaign_id: k.campaign_id })),
        ` — ${words(k.state)}${k.reason ? ` (${words(k.reason)})` : ''}, ${k.step ? `relance ${k.step}` : 'premier message'}`,
        k.thread_id ? [' · ', link('voir le fil', routeTo('fils', { thread_id: k.thread_id }))] : null)))
      : empty('Aucune campagne ne lui a écrit.')),
    section('Fils', null, () => data.threads.length
      ? h('ul', { class: 'list' }, data.threads.map((th) => h('li', {}, link(th.subject || '(sans objet)', routeTo('fils', { thread_id: th.thread_id })), ' — ', time(th.last_message_at))))
      : empty('Aucun fil avec ce contact.')));
}

PAGES.contacts = (result, route) => {
  if (route.arguments.email) {
    const answer = result.get_contact;
    const title = answer.error ? TITLES.contacts : answer.contact.name || answer.contact.email;
    return { title, node: answerOr(answer, contactSheet) };
  }
  const query = route.arguments.query;
  return {
    title: query ? `Contacts « ${query} »` : TITLES.contacts,
    node: h('div', {},
      form('Rechercher un contact', [field('Adresse ou nom', 'query', { type: 'search', required: true, value: query })], 'Rechercher',
        (values) => navigateLocally(routeTo('contacts', { query: String(values.get('query')).trim() })), { role: 'search' }),
      contactList(result.list_contacts, { tool: 'list_contacts', args: readOf(route, 'list_contacts').arguments })),
  };
};
