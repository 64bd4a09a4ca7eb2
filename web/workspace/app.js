// Routes and their addresses, showing a route, following the assistant's navigations, and the two
// ways in: the MCP App inside an assistant, the page at /workspace in a browser.

/** The address of a route (src/workspace/pages.ts routePath writes the same): /workspace/fils/thr_…?label=devis. */
function pathOf(route) {
  const object = config.objects[route.page];
  const rest = Object.entries(route.arguments).filter(([name]) => name !== object);
  const query = rest.length ? `?${new URLSearchParams(rest.map(([name, value]) => [name, String(value)]))}` : '';
  const segment = object && route.arguments[object] !== undefined ? `/${encodeURIComponent(route.arguments[object])}` : '';
  return `/workspace${route.page === 'jour' && !segment ? '' : `/${route.page}`}${segment}${query}`;
}
/** Inside an assistant the view has no address of its own: its links open the same page in a browser. */
const hrefOf = (route) => (config.mode === 'mcp' ? `${config.baseUrl}${pathOf(route)}` : pathOf(route));

/** The route of this address, or null; `?page=` is the older form of the same. */
function routeOfAddress(location) {
  const [page = 'jour', object, extra] = location.pathname.replace(/^\/workspace\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const query = new URLSearchParams(location.search);
  const name = query.get('page') || page;
  if (!TITLES[name] || extra !== undefined || (object !== undefined && !config.objects[name])) return null;
  const args = {};
  for (const [key, value] of query) {
    if (key === 'page' || !(key in config.arguments)) continue;
    args[key] = config.arguments[key] === 'boolean' ? value === 'true' : value;
  }
  if (object !== undefined) args[config.objects[name]] = object;
  return routeTo(name, args);
}

function renderNav() {
  document.getElementById('nav').replaceChildren(...Object.entries(TITLES).map(([page, title]) =>
    h('li', {}, link(title, routeTo(page), { 'data-page': page }))));
}

/** Shows a route; of two shows under way, the one begun last takes the page, whichever reads faster. */
async function show(route, result) {
  const turn = ++state.shows;
  state.route = route;
  const data = result || (await readRoute(route));
  if (turn !== state.shows) return;
  for (const a of document.querySelectorAll('#nav a')) {
    if (a.dataset.page === route.page) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
  const page = PAGES[route.page](data, route);
  say('');
  main.replaceChildren(h('h1', {}, page.title), status, page.node);
  document.title = `${page.title}${page.title === TITLES[route.page] ? '' : ` — ${TITLES[route.page]}`} — Mailbox`;
  if (route.arguments.message_id) {
    const target = document.getElementById(route.arguments.message_id);
    if (target) target.scrollIntoView();
  }
}

/** A barrier in the instance: the assistant's commands older than this gesture are void. */
async function barrier() {
  if (!state.instanceId) return;
  const answer = await call('workspace_events', { instance_id: state.instanceId, after_sequence: state.received, local_navigation: true });
  if (answer.data) state.received = Math.max(state.received, answer.data.sequence);
}

/** A gesture of the person: the page read here, and in a browser a new place in the history. */
async function navigateLocally(route) {
  await barrier();
  if (config.mode === 'web') history.pushState(route, '', pathOf(route));
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
      if (config.mode === 'web') history.pushState(command.route, '', pathOf(command.route));
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
  say(error.message, 'error');
  main.prepend(status);
}

/** `shows`: for an instance reopened after the last one ended, how many shows the page had then. */
async function start(opened, shows = null) {
  state.instanceId = opened.instance_id;
  state.received = opened.sequence;
  state.processed = opened.sequence;
  const settings = await call('get_settings', {});
  if (settings.data) {
    state.permissions = settings.data.key.permissions;
    state.keyId = settings.data.key.id;
  }
  if (shows === null || shows === state.shows) await show(opened.route);
  follow();
}

function close() {
  if (!state.instanceId || state.closed) return;
  state.closed = true;
  call('workspace_events', { instance_id: state.instanceId, after_sequence: state.received, close: true }, { keepalive: true });
}

// ---- in a browser: signed in by the session cookie, or by a key kept for this tab only
function signInPage(problem) {
  const next = location.pathname + location.search;
  main.replaceChildren(h('h1', {}, 'Connexion'), problem ? h('p', { class: 'error', role: 'alert' }, problem) : null,
    h('p', {}, h('a', { href: `/signin?${new URLSearchParams({ next })}` }, 'Recevoir un code par e-mail (humain de l’espace)')),
    form('Se connecter avec une clé', [field('Clé d’API', 'key', { type: 'password', required: true, autocomplete: 'off' })], 'Ouvrir', (values) => {
      sessionStorage.setItem('mailbox-key', String(values.get('key')));
      location.reload();
    }));
  document.title = 'Connexion — Mailbox';
}

async function bootWeb() {
  const key = sessionStorage.getItem('mailbox-key');
  state.transport = webTransport(key);
  const asked = routeOfAddress(location);
  if (!asked) {
    document.title = 'Page introuvable — Mailbox';
    return main.replaceChildren(h('h1', {}, 'Page introuvable'), empty('Cette adresse ne mène à aucune page de l’espace de travail. ', link('Aller au journal du jour', routeTo('jour'))));
  }
  history.replaceState(asked, '', pathOf(asked));
  const opened = await call('open_workspace', asked);
  if (opened.error && opened.error.code === 'unauthorized') {
    sessionStorage.removeItem('mailbox-key');
    return signInPage(key ? 'Cette clé n’est pas reconnue : vérifiez-la (elle commence par mbx_) ou connectez-vous par e-mail.' : null);
  }
  if (opened.error) return main.replaceChildren(h('h1', {}, 'Espace de travail'), refusal(opened.error));
  window.addEventListener('popstate', async (event) => {
    await barrier();
    await show(event.state || routeOfAddress(location) || routeTo('jour'));
  });
  window.addEventListener('pagehide', close);
  // Back from another site with the page kept in memory: its instance was closed on leaving.
  window.addEventListener('pageshow', (event) => event.persisted && location.reload());
  start(opened.data);
}

async function bootMcp() {
  const transport = mcpTransport();
  state.transport = transport;
  transport.app.ontoolresult = (params) => {
    const opened = structuredOf(params);
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
