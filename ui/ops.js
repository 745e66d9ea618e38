// Injected faults, the request journal, and the buttons that clear a whole collection.
import { api } from './api.js';
import { byId, formValues, h, listView } from './dom.js';
import { dateTime, httpBadge } from './format.js';
import { act, confirmAction } from './kit.js';

/** @typedef {import('./server-types.js').Fault} Fault */
/** @typedef {import('./server-types.js').JournalEntry} JournalEntry */

// ---- faults ---------------------------------------------------------------------------------
const faultForm = /** @type {HTMLFormElement} */ (byId('fault-form'));

faultForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const v = formValues(faultForm);
  /** @type {Record<string, unknown>} */
  const body = { path: v.path };
  if (v.method) body.method = v.method;
  if (v.code) body.code = v.code;
  if (v.message) body.message = v.message;
  for (const name of ['status', 'latencyMs', 'times', 'probability']) if (v[name] !== '') body[name] = Number(v[name]);
  const r = await act(e.submitter, `Fault injected on ${v.path}`, () => api('POST', '/_sandbox/faults', body));
  if (r) faultForm.reset();
});

/** @param {Fault} f */
function faultRow(f) {
  return h(
    'tr',
    {},
    h('td', { text: f.method ?? 'any' }),
    h('th', { scope: 'row', class: 'mono wrap', text: f.path }),
    h('td', {}, f.status ? httpBadge(f.status) : null, f.code ? h('span', { class: 'mono small', text: ` ${f.code}` }) : null),
    h('td', { text: f.latencyMs ? `${f.latencyMs} ms` : '—' }),
    h('td', { text: f.remaining === null ? 'unlimited' : String(f.remaining) }),
    h('td', { text: String(f.probability) }),
    h('td', { text: String(f.hits) }),
    h(
      'td',
      { class: 'actions' },
      h('button', {
        type: 'button',
        class: 'small danger',
        dataset: { fk: 'delete' },
        'aria-label': `Delete fault on ${f.path}`,
        text: 'Delete',
        onclick: (/** @type {MouseEvent} */ e) =>
          act(/** @type {Element} */ (e.currentTarget), `Fault on ${f.path} removed`, () => api('DELETE', `/_sandbox/faults/${f.id}`)),
      }),
    ),
  );
}

const faults = listView(byId('fault-rows'), byId('fault-empty'), { key: (/** @type {Fault} */ f) => f.id, render: faultRow });
const refreshFaults = async () => faults.render(await api('GET', '/_sandbox/faults'));

/** @type {import('./app.js').View} */
export const faultsView = {
  topics: ['faults'],
  load: () => [refreshFaults],
  stale: () => [refreshFaults],
};

// ---- request journal ------------------------------------------------------------------------
/** @param {JournalEntry} r */
function requestRow(r) {
  return h(
    'tr',
    {},
    h('td', { class: 'mono small nowrap', text: dateTime(r.at) }),
    h('th', { scope: 'row', class: 'mono wrap' }, h('strong', { text: r.method }), ` ${r.path}`),
    h('td', {}, httpBadge(r.status)),
    h('td', { class: 'num', text: `${Math.round(r.durationMs)} ms` }),
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

const REQUEST_ROWS = 200;
const requests = listView(byId('request-rows'), byId('request-empty'), {
  key: (/** @type {JournalEntry} */ r) => String(r.seq),
  render: requestRow,
});
// newest first, as the journal answers
const refreshRequests = async () => requests.render(await api('GET', `/_sandbox/requests?limit=${REQUEST_ROWS}`));

/** @type {import('./app.js').View} */
export const requestsView = {
  topics: ['requests'],
  load: () => [refreshRequests],
  stale: () => [refreshRequests],
};

// ---- clearing a collection ------------------------------------------------------------------
/** @type {Record<string, [string, string]>} */
const CLEAR = {
  'pix-keys': ['Clear the key directory', 'Every key of the directory is removed.'],
  rules: ['Clear all outcome rules', 'Every outcome rule is removed; new transactions follow the defaults.'],
  faults: ['Clear all faults', 'Every injected fault is removed.'],
  requests: ['Clear the request journal', 'Every recorded request is forgotten.'],
};

for (const button of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll('[data-clear]'))) {
  const what = button.dataset.clear ?? '';
  const [title, intro] = CLEAR[what] ?? ['', ''];
  button.addEventListener('click', () =>
    confirmAction({ title, intro, submit: title, done: `${title}: done`, onSubmit: () => api('DELETE', `/_sandbox/${what}`) }),
  );
}
