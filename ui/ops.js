// The clock of the selected tenant, or the sandbox-wide one (read, advance, freeze, unfreeze),
// injected faults, the request journal, and the buttons that clear a whole collection.
import { api, asList, query } from './api.js';
import { fill, formValues, h, reconcile, show } from './dom.js';
import { dateTime, httpBadge } from './format.js';
import { act, confirmAction } from './kit.js';

// ---- clock ----------------------------------------------------------------------------------
const clockNow = document.getElementById('clock-now');
const clockOffset = document.getElementById('clock-offset');
const clockForm = document.getElementById('clock-form');
const clockAccount = document.getElementById('clock-account');
const clockFrozen = document.getElementById('clock-frozen');
const clockFreeze = document.getElementById('clock-freeze');
/** the selected tenant: its clock; none ("All"): every tenant, and the sandbox-wide clock */
const target = () => (clockAccount.value ? { accountId: clockAccount.value } : {});
const whose = () =>
  clockAccount.value ? `${clockAccount.selectedOptions[0]?.textContent ?? 'the tenant'}'s clock` : "Every tenant's clock";

/** "real time", or how far the sandbox clock is from it: "+2 min" (short: the top bar is narrow). */
function offsetText(c) {
  const ms = typeof c.offsetMs === 'number' ? c.offsetMs : typeof c.offsetSeconds === 'number' ? c.offsetSeconds * 1000 : null;
  if (ms === null) return [];
  const s = Math.round(ms / 1000);
  if (s === 0) return ['(real time)'];
  const abs = Math.abs(s);
  const text =
    abs >= 86400
      ? `${(abs / 86400).toFixed(1)} d`
      : abs >= 3600
        ? `${(abs / 3600).toFixed(1)} h`
        : abs >= 60
          ? `${Math.round(abs / 60)} min`
          : `${abs} s`;
  return [
    `(${s > 0 ? '+' : '−'}${text}`,
    h('span', { class: 'visually-hidden', text: s > 0 ? ' ahead of real time' : ' behind real time' }),
    ')',
  ];
}

export async function refreshClock() {
  const c = await api('GET', `/_sandbox/clock${query(target())}`);
  show(clockFrozen, c?.frozen === true);
  clockFreeze.textContent = c?.frozen ? 'Unfreeze' : 'Freeze';
  clockFreeze.hidden = !clockAccount.value; // "All": freezing every tenant at once is for the API
  clockNow.textContent = `${dateTime(c?.now ?? c?.iso)} UTC`;
  const offset = offsetText(c ?? {});
  clockOffset.title = offset
    .map((p) => (typeof p === 'string' ? p : p.textContent))
    .join('')
    .replace(/[()]/g, '');
  fill(clockOffset, ...offset);
}

clockForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const seconds = Number(clockForm.elements.seconds.value);
  act(e.submitter, `${whose()} advanced by ${seconds} s; everything due has run at its own instant`, async () => {
    await api('POST', '/_sandbox/clock/advance', { seconds, ...target() });
    await refreshClock();
  });
});

clockFreeze.addEventListener('click', () => {
  const freeze = clockFreeze.textContent === 'Freeze';
  act(clockFreeze, `${whose()} ${freeze ? 'frozen' : 'flows again'}`, async () => {
    await api('POST', `/_sandbox/clock/${freeze ? 'freeze' : 'unfreeze'}`, target());
    await refreshClock();
  });
});

clockAccount.addEventListener('change', () => void refreshClock().catch(() => undefined));

// ---- faults ---------------------------------------------------------------------------------
const faultForm = document.getElementById('fault-form');
const faultRows = document.getElementById('fault-rows');
const faultEmpty = document.getElementById('fault-empty');

faultForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const v = formValues(faultForm);
  const body = { path: v.path };
  if (v.method) body.method = v.method;
  if (v.code) body.code = v.code;
  if (v.message) body.message = v.message;
  for (const name of ['status', 'latencyMs', 'times', 'probability']) if (v[name] !== '') body[name] = Number(v[name]);
  const r = await act(e.submitter, `Fault injected on ${v.path}`, () => api('POST', '/_sandbox/faults', body));
  if (r) faultForm.reset();
});

function faultRow(f) {
  return h(
    'tr',
    {},
    h('td', { text: f.method ?? 'any' }),
    h('th', { scope: 'row', class: 'mono wrap', text: f.path }),
    h('td', {}, f.status ? httpBadge(f.status) : null, f.code ? h('span', { class: 'mono small', text: ` ${f.code}` }) : null),
    h('td', { text: f.latencyMs ? `${f.latencyMs} ms` : '—' }),
    h('td', { text: f.remaining === null || f.remaining === undefined ? 'unlimited' : String(f.remaining) }),
    h('td', { text: f.probability === undefined ? '1' : String(f.probability) }),
    h('td', { text: String(f.hits ?? 0) }),
    h(
      'td',
      { class: 'actions' },
      h('button', {
        type: 'button',
        class: 'small danger',
        dataset: { fk: 'delete' },
        'aria-label': `Delete fault on ${f.path}`,
        text: 'Delete',
        onclick: (e) => act(e.currentTarget, `Fault on ${f.path} removed`, () => api('DELETE', `/_sandbox/faults/${f.id}`)),
      }),
    ),
  );
}

export async function refreshFaults() {
  const faults = asList(await api('GET', '/_sandbox/faults'));
  reconcile(faultRows, faults, { key: (f) => f.id, render: faultRow });
  show(faultEmpty, faults.length === 0);
}

// ---- request journal ------------------------------------------------------------------------
const requestRows = document.getElementById('request-rows');
const requestEmpty = document.getElementById('request-empty');

const at = (r) => r.at ?? r.time ?? r.createdAt ?? r.startedAt;

function requestRow(r) {
  const status = r.status ?? r.statusCode ?? r.response?.status;
  const duration = r.durationMs ?? r.duration;
  return h(
    'tr',
    {},
    h('td', { class: 'mono small nowrap', text: dateTime(at(r)) }),
    h('th', { scope: 'row', class: 'mono wrap' }, h('strong', { text: r.method ?? '?' }), ` ${r.path ?? r.url ?? ''}`),
    h('td', {}, typeof status === 'number' ? httpBadge(status) : '—'),
    h('td', { class: 'num', text: typeof duration === 'number' ? `${Math.round(duration)} ms` : '—' }),
    h(
      'td',
      {},
      h(
        'details',
        { dataset: { fk: 'raw' } },
        h('summary', { text: 'Show' }),
        h('pre', { class: 'raw', text: JSON.stringify(r, null, 2) }),
      ),
    ),
  );
}

export async function refreshRequests() {
  const list = asList(await api('GET', '/_sandbox/requests'));
  const sorted = [...list].sort((a, b) => String(at(b)).localeCompare(String(at(a)))).slice(0, 200);
  reconcile(requestRows, sorted, { key: (r) => r.seq ?? r.id ?? `${at(r)} ${r.method} ${r.path}`, render: requestRow });
  show(requestEmpty, list.length === 0);
}

// ---- clearing a collection ------------------------------------------------------------------
const CLEAR = {
  'pix-keys': ['Clear the key directory', 'Every key of the directory is removed.'],
  rules: ['Clear all outcome rules', 'Every outcome rule is removed; new transactions follow the defaults.'],
  faults: ['Clear all faults', 'Every injected fault is removed.'],
  requests: ['Clear the request journal', 'Every recorded request is forgotten.'],
};

for (const button of document.querySelectorAll('[data-clear]')) {
  const what = button.dataset.clear;
  const [title, intro] = CLEAR[what];
  button.addEventListener('click', () =>
    confirmAction({ title, intro, submit: title, done: `${title}: done`, onSubmit: () => api('DELETE', `/_sandbox/${what}`) }),
  );
}
