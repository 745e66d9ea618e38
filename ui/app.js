// The dashboard's entry point: tabs, the admin token, and the refresh loop (every 2 s while
// the tab is visible, right after every action, never two at once).
import { ApiError, getToken, onResult, setToken } from './api.js';
import * as accounts from './accounts.js';
import * as directory from './directory.js';
import { announce, setAfterAction } from './kit.js';
import * as ops from './ops.js';
import * as transactions from './transactions.js';
import * as webhooks from './webhooks.js';

const INTERVAL_MS = 2000;

/** What each tab reads on a refresh, besides the clock and the accounts. */
const PANELS = {
  transactions: () => transactions.refresh(),
  accounts: () => accounts.refresh(),
  webhooks: () => webhooks.refresh(),
  directory: () => directory.refresh(),
  faults: () => ops.refreshFaults(),
  requests: () => ops.refreshRequests(),
};

// ---- tabs (WAI-ARIA tabs pattern: one tab stop, arrows move between tabs) ------------------
const tabs = [...document.querySelectorAll('[role=tab]')];
let current = 'transactions';

function selectTab(tab, focus = false) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute('aria-selected', String(on));
    t.tabIndex = on ? 0 : -1;
    document.getElementById(t.getAttribute('aria-controls')).hidden = !on;
  }
  current = tab.id.replace(/^tab-/, '');
  if (focus) tab.focus();
  refresh();
}

for (const tab of tabs) {
  tab.addEventListener('click', () => selectTab(tab));
  tab.addEventListener('keydown', (e) => {
    const i = tabs.indexOf(tab);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    selectTab(tabs[(to + tabs.length) % tabs.length], true);
  });
}

document.addEventListener('open-transaction', async (e) => {
  selectTab(document.getElementById('tab-transactions'));
  await transactions.select(e.detail, true);
});

// ---- admin token and connection state -----------------------------------------------------
const tokenForm = document.getElementById('token-form');
const tokenInput = document.getElementById('admin-token');
const banner = document.getElementById('auth-banner');
const conn = document.getElementById('conn');
tokenInput.value = getToken();

tokenForm.addEventListener('submit', (e) => {
  e.preventDefault();
  setToken(tokenInput.value.trim());
  announce(tokenInput.value.trim() ? 'Admin token saved for this browser tab' : 'Admin token removed');
  refresh();
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

function setConn(text, tone) {
  if (conn.textContent !== text) conn.textContent = text;
  conn.className = `conn tone-${tone}`;
}

// ---- the refresh loop ----------------------------------------------------------------------
let running = null;
let again = false;

/** Reads everything the visible tab shows; a call during a refresh queues one more after it. */
export function refresh() {
  if (running) {
    again = true;
    return running;
  }
  running = (async () => {
    try {
      await Promise.all([ops.refreshClock(), accounts.refreshAccounts()]);
      await PANELS[current]();
      setConn('up to date', 'ok');
    } catch (e) {
      setConn(
        e instanceof ApiError && e.status === 0
          ? 'sandbox unreachable'
          : e instanceof ApiError && e.isAuth
            ? 'admin token needed'
            : `refresh failed: ${e.message}`,
        'bad',
      );
    } finally {
      running = null;
      if (again) {
        again = false;
        refresh();
      }
    }
  })();
  return running;
}

setAfterAction(() => refresh());
const auto = document.getElementById('auto-refresh');
setInterval(() => {
  if (auto.checked && !document.hidden) refresh();
}, INTERVAL_MS);
document.addEventListener('visibilitychange', () => {
  if (!document.hidden && auto.checked) refresh();
});
refresh();
