// The dashboard's entry point: tabs, the admin token, and keeping the visible view current. The
// page opens one change stream (live.js) for the topics of what it shows; when it is ready it reads
// the view, and after that it reads again only what a change made stale. Nothing runs on a timer:
// an idle page sends no request (docs/dashboard.md#live-updates).
import { ApiError, getToken, onResult, setToken } from './api.js';
import { accountsView, refreshAccounts } from './accounts.js';
import { refreshClock } from './clock.js';
import { directoryView } from './directory.js';
import { byId, loadingSays } from './dom.js';
import { announce, setAfterAction } from './kit.js';
import { openStream } from './live.js';
import { faultsView, requestsView } from './ops.js';
import { reportView } from './report.js';
import { transactionsView } from './transactions.js';
import { snapshotsView } from './snapshots.js';
import { select } from './tx-detail.js';
import { webhooksView } from './webhooks.js';

/** @typedef {import('./live.js').Change} Change */
/** @typedef {import('./live.js').ChangeTopic} ChangeTopic */
/** @typedef {() => Promise<unknown>} Read */
/**
 * What a tab shows, as the page keeps it current.
 * @typedef {object} View
 * @property {ChangeTopic[]} topics the lists it shows
 * @property {() => string | null} [scope] the one account whose records it shows, when it shows one
 * @property {() => Read[]} load reads everything it shows
 * @property {(change: Change) => Read[]} stale what a change made stale
 */

/** Every tab shows the accounts (names, pickers) and the clock. */
/** @type {ChangeTopic[]} */
const TOP = ['accounts', 'clock'];
/** @type {Record<string, View>} */
const VIEWS = {
  transactions: transactionsView,
  accounts: accountsView,
  webhooks: webhooksView,
  directory: directoryView,
  snapshots: snapshotsView,
  faults: faultsView,
  requests: requestsView,
  report: reportView,
};

// ---- tabs (WAI-ARIA tabs pattern: one tab stop, arrows move between tabs) ------------------
const tabs = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('[role=tab]')]);
let current = 'transactions';
const view = () => VIEWS[current] ?? transactionsView;

/**
 * @param {HTMLElement} tab
 * @param {boolean} [focus]
 */
function selectTab(tab, focus = false) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    byId(t.getAttribute('aria-controls') ?? '').hidden = !on;
  }
  const was = current;
  current = tab.id.replace(/^tab-/, '');
  if (focus) tab.focus();
  if (current !== was) listen();
}

for (const tab of tabs) {
  tab.addEventListener('click', () => selectTab(tab));
  tab.addEventListener('keydown', (e) => {
    const i = tabs.indexOf(tab);
    const to = /** @type {Record<string, number>} */ ({ ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 })[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    if (next) selectTab(next, true);
  });
}

document.addEventListener('open-transaction', (e) => {
  selectTab(byId('tab-transactions'));
  void select(/** @type {CustomEvent<string>} */ (e).detail, true);
});

// ---- admin token and connection state -----------------------------------------------------
const tokenForm = /** @type {HTMLFormElement} */ (byId('token-form'));
const tokenInput = /** @type {HTMLInputElement} */ (byId('admin-token'));
const banner = byId('auth-banner');
const conn = byId('conn');
const live = /** @type {HTMLInputElement} */ (byId('live'));
tokenInput.value = getToken();

tokenForm.addEventListener('submit', (e) => {
  e.preventDefault();
  setToken(tokenInput.value.trim());
  announce(tokenInput.value.trim() ? 'Admin token saved for this browser tab' : 'Admin token removed');
  stream?.retry();
});

onResult((err) => {
  if (err instanceof ApiError && err.isAuth) {
    const text = getToken()
      ? 'The sandbox refused the admin token: check it and press “Use token”.'
      : 'This sandbox needs an admin token (--admin-token): type it in the field above and press “Use token”.';
    if (banner.textContent !== text) banner.textContent = text;
    banner.hidden = false;
  } else if (!err) banner.hidden = true;
});

/**
 * @param {string} text
 * @param {'ok' | 'bad' | 'warn'} tone
 */
function setConn(text, tone) {
  if (conn.textContent !== text) conn.textContent = text;
  conn.className = `conn tone-${tone}`;
}

/** @param {unknown} e */
const problem = (e) =>
  e instanceof ApiError && e.status === 0
    ? 'sandbox unreachable'
    : e instanceof ApiError && e.isAuth
      ? 'admin token needed'
      : `update failed: ${e instanceof Error ? e.message : String(e)}`;

// ---- reading what is stale ----------------------------------------------------------------
// The accounts come first (rows show their names); a read asked for while one runs runs after it.
/** @type {Set<Read>} */
const dueFirst = new Set();
/** @type {Set<Read>} */
const due = new Set();
let reading = false;

/**
 * @param {Read[]} reads
 * @param {boolean} [first]
 */
function need(reads, first = false) {
  for (const r of reads) (first ? dueFirst : due).add(r);
  void readDue();
}

async function readDue() {
  if (reading || document.hidden) return; // a hidden page reads when it is shown again
  reading = true;
  try {
    while ((dueFirst.size > 0 || due.size > 0) && !document.hidden) {
      const first = [...dueFirst];
      dueFirst.clear();
      const rest = [...due];
      due.clear();
      try {
        await Promise.all(first.map((r) => r()));
        await Promise.all(rest.map((r) => r()));
        if (stream) setConn(paused() ? 'paused' : 'live', paused() ? 'warn' : 'ok');
      } catch (e) {
        setConn(problem(e), 'bad');
        loadingSays(`Not loaded: ${problem(e)}`);
      }
    }
  } finally {
    reading = false;
  }
}

/** Everything the page shows now: when the stream (re)starts, and when the view changes. */
const readAll = () => {
  need([refreshAccounts, refreshClock], true);
  need(view().load());
};

// ---- the change stream ----------------------------------------------------------------------
/** @type {ReturnType<typeof openStream> | null} */
let stream = null;
let listening = '';
const paused = () => !live.checked;

/** Listens to what the page shows now: a new stream when the topics or the account changed. */
function listen() {
  if (document.hidden) return; // shown again, it listens (visibilitychange)
  const v = view();
  const subscription = { topics: [...TOP, ...v.topics], accountId: v.scope?.() ?? null };
  const key = JSON.stringify(subscription);
  if (stream && key === listening) return;
  stream?.close();
  listening = key;
  if (paused()) {
    stream = null;
    setConn('paused', 'warn');
    readAll(); // paused: what the page shows is read once, and again after each action
    return;
  }
  setConn('connecting…', 'warn');
  stream = openStream(subscription, {
    ready: readAll,
    change(change) {
      if (change.reset) return readAll();
      const top = change.topics.includes('accounts')
        ? [refreshAccounts, refreshClock]
        : change.topics.includes('clock')
          ? [refreshClock]
          : [];
      need(top, true);
      need(v.stale(change));
    },
    down(error) {
      setConn(error.status === 0 ? 'reconnecting…' : problem(error), error.isAuth ? 'bad' : 'warn');
      if (error.isAuth) loadingSays('Not loaded: the sandbox needs its admin token');
    },
  });
}

document.addEventListener('scope-change', () => listen());
// a hidden page lets go of its stream (a browser gives a host six connections over HTTP/1.1, shared by
// its tabs); shown again, it listens anew and reads what it shows
document.addEventListener('visibilitychange', () => {
  if (!document.hidden) return listen();
  stream?.close();
  stream = null;
  listening = '';
});
live.addEventListener('change', () => {
  listening = '';
  if (paused()) {
    stream?.close();
    stream = null;
    setConn('paused', 'warn');
  } else listen();
});
// live, each change comes through the stream; paused, an action reads the view again itself
setAfterAction(() => {
  if (paused()) readAll();
});
listen();
