// The webhooks panel: endpoints (register, delete), the delivery log with every attempt,
// redeliver and a delivery fault to add, the faults waiting, and firing an event for any transaction.
import { api, apiPage, asList, query } from './api.js';
import { formValues, h, reconcile, show } from './dom.js';
import { badge, dateTime, shortId } from './format.js';
import { act, copyButton } from './kit.js';
import { pager } from './pager.js';
import { accountName, attemptsDetails, endpointUrl, EVENT_TYPES, firedText, redeliverButton, state } from './shared.js';
import { faultForm, refreshWebhookFaults } from './webhook-faults.js';

const endpointRows = document.getElementById('endpoint-rows');
const endpointEmpty = document.getElementById('endpoint-empty');
const deliveryRows = document.getElementById('delivery-rows');
const deliveryEmpty = document.getElementById('delivery-empty');
const deliveryStatus = document.getElementById('delivery-status');
const form = document.getElementById('webhook-form');
const fireForm = document.getElementById('fire-form');
const DELIVERY_ROWS = 200;
const deliveryPages = pager(document.getElementById('delivery-pager'), () => refresh().catch(() => {}));

document
  .getElementById('webhook-events')
  .append(
    ...EVENT_TYPES.map((type) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'events', value: type }), ` ${type}`)),
  );
fireForm.querySelector('select[name=type]').append(...EVENT_TYPES.map((type) => h('option', { value: type, text: type })));

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const v = formValues(form);
  const body = { url: v.url };
  if (v.accountId) body.accountId = v.accountId;
  if (v.events.length) body.events = v.events;
  const ep = await act(e.submitter, `Endpoint registered for ${v.url}`, () => api('POST', '/_sandbox/webhooks', body));
  if (ep) form.reset();
});

fireForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const v = formValues(fireForm);
  act(e.submitter, firedText, () =>
    api('POST', '/_sandbox/webhooks/fire', v.type ? { transactionId: v.transactionId, type: v.type } : { transactionId: v.transactionId }),
  );
});

function endpointRow(ep) {
  return h(
    'tr',
    {},
    h(
      'th',
      { scope: 'row', class: 'wrap' },
      h('span', { class: 'mono', text: ep.url }),
      ep.source === 'config' ? h('span', { class: 'muted small', text: ' (from --webhook-url)' }) : null,
    ),
    h('td', { text: accountName(ep.accountId) }),
    h('td', { class: 'small', text: Array.isArray(ep.events) && ep.events.length ? ep.events.join(', ') : 'every event' }),
    h(
      'td',
      {},
      ep.secret
        ? [
            h('span', { class: 'mono small', text: `${String(ep.secret).slice(0, 10)}…` }),
            ' ',
            copyButton(ep.secret, `the secret of ${ep.url}`, 'copy-secret'),
          ]
        : '—',
    ),
    h(
      'td',
      { class: 'actions' },
      h('button', {
        type: 'button',
        class: 'small danger',
        dataset: { fk: 'delete' },
        'aria-label': `Delete endpoint ${ep.url}`,
        text: 'Delete',
        onclick: (e) => act(e.currentTarget, `Endpoint ${ep.url} deleted`, () => api('DELETE', `/_sandbox/webhooks/${ep.id}`)),
      }),
    ),
  );
}

function deliveryRow(d) {
  return h(
    'tr',
    {},
    h('td', { class: 'mono small nowrap', text: dateTime(d.createdAt) }),
    h('td', { class: 'mono', text: d.eventType }),
    h(
      'td',
      {},
      h('button', {
        type: 'button',
        class: 'link mono',
        dataset: { fk: 'tx' },
        'aria-label': `Open transaction ${shortId(d.transactionId)}`,
        text: shortId(d.transactionId),
        onclick: () => document.dispatchEvent(new CustomEvent('open-transaction', { detail: d.transactionId })),
      }),
    ),
    h('td', { class: 'mono small wrap', text: d.url ?? endpointUrl(d.endpointId) }),
    h('td', {}, badge(d.status), d.fault ? h('span', { class: 'muted small', text: ` ${d.fault.action}` }) : null),
    h('td', {}, attemptsDetails(d)),
    h('td', { class: 'actions' }, redeliverButton(d), ' ', faultForm(d)),
  );
}

/** Endpoints are also read for the transactions panel (delivery URLs). */
async function refreshEndpoints() {
  state.endpoints = asList(await api('GET', '/_sandbox/webhooks'));
}

export async function refresh() {
  await Promise.all([refreshEndpoints(), refreshWebhookFaults()]);
  reconcile(endpointRows, state.endpoints, { key: (ep) => ep.id, render: endpointRow });
  show(endpointEmpty, state.endpoints.length === 0);
  const status = deliveryStatus.value;
  const after = deliveryPages.after;
  // newest first (by creation), a page at a time
  const { items, next } = await apiPage(`/_sandbox/webhooks/deliveries${query({ status, limit: DELIVERY_ROWS, after })}`);
  if (status !== deliveryStatus.value || after !== deliveryPages.after) return;
  deliveryPages.setNext(next);
  reconcile(deliveryRows, items, { key: (d) => d.id, render: deliveryRow });
  show(deliveryEmpty, items.length === 0);
}

deliveryStatus.addEventListener('change', () => {
  deliveryPages.reset();
  refresh().catch(() => {});
});
