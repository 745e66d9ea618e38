// The integration report tab (docs/report.md): the checks of the tenant picked in the top bar, each with
// its outcome, detail, advice and evidence, read again when that tenant's requests, deliveries or
// webhooks change; "Probe webhooks" runs the report with the webhook probe.
import { api, query } from './api.js';
import { byId, h, listView } from './dom.js';
import { act } from './kit.js';

/** @typedef {import('./server-types.js').IntegrationReport} IntegrationReport */
/** @typedef {IntegrationReport['checks'][number]} Check */

const picker = /** @type {HTMLSelectElement} */ (byId('clock-account'));
const summary = byId('report-summary');
const probe = /** @type {HTMLButtonElement} */ (byId('report-probe'));

/** @type {Record<Check['outcome'], [string, string]>} tone and mark of each outcome: text and shape as well as colour */
const LOOKS = { pass: ['ok', '✓'], fail: ['bad', '✕'], warn: ['warn', '!'], 'not-exercised': ['muted', '–'] };

/** @param {Check} c */
function checkRow(c) {
  const [tone, mark] = LOOKS[c.outcome];
  return h(
    'tr',
    { dataset: { check: c.id, outcome: c.outcome } },
    h('td', {}, h('span', { class: `badge tone-${tone}` }, h('span', { class: 'mark', 'aria-hidden': 'true', text: mark }), c.outcome)),
    h('th', { scope: 'row' }, h('span', { class: 'mono', text: c.id }), h('br'), h('span', { class: 'small', text: c.title })),
    h(
      'td',
      { class: 'wrap' },
      c.detail ? h('span', { text: c.detail }) : null,
      c.detail ? h('br') : null,
      h('span', { class: 'muted', text: c.advice }),
    ),
    h('td', { class: 'mono small wrap', text: c.evidence.length ? c.evidence.join(', ') : '—' }),
  );
}

const checks = listView(byId('report-rows'), byId('report-empty'), { key: (/** @type {Check} */ c) => c.id, render: checkRow });

/** @param {boolean} [withProbe] */
async function refreshReport(withProbe = false) {
  probe.disabled = !picker.value;
  if (!picker.value) {
    summary.textContent = 'Pick a tenant in the top bar (beside the clock) to see its report.';
    checks.render([]);
    return;
  }
  /** @type {IntegrationReport} */
  const r = await api('GET', `/_sandbox/report${query({ accountId: picker.value, probe: withProbe ? 'true' : '' })}`);
  const n = (/** @type {Check['outcome']} */ o) => r.checks.filter((c) => c.outcome === o).length;
  summary.textContent = `${r.requests} requests judged, ${r.from} to ${r.to}: ${n('fail')} fail, ${n('warn')} warn, ${n('pass')} pass, ${n('not-exercised')} not exercised.`;
  checks.render(r.checks);
}

probe.addEventListener('click', () => act(probe, 'Webhook receivers probed', () => refreshReport(true)));
// the report is of the tenant picked: a new pick listens to that tenant's changes, and reads it again, while the tab is shown
picker.addEventListener('change', () => {
  if (!byId('panel-report').hidden) document.dispatchEvent(new Event('scope-change'));
});

/** @type {import('./app.js').View} */
export const reportView = {
  topics: ['requests', 'deliveries', 'webhooks'],
  scope: () => picker.value || null,
  load: () => [() => refreshReport()],
  stale: () => [() => refreshReport()],
};
