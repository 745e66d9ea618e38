// The webhooks panel: endpoints (register, delete), the delivery log with every attempt,
// redeliver and a delivery fault to add, the faults waiting, and firing an event for any transaction.
import { api, apiPage, query } from './api.js';
import { byId, formValues, h, listView } from './dom.js';
import { badge, dateTime, shortId } from './format.js';
import { act, copyButton } from './kit.js';
import { pager } from './pager.js';
import { accountName, accountNames, attemptsDetails, endpointUrl, fillOptions, firedText, redeliverButton, state } from './shared.js';
import { DELIVERY_STATUSES, EVENT_TYPES } from './vocabulary.js';
import { faultForm, refreshWebhookFaults } from './webhook-faults.js';

/** @typedef {import('./server-types.js').Delivery} Delivery */
/** @typedef {import('./server-types.js').Endpoint} Endpoint */

const deliveryStatus = /** @type {HTMLSelectElement} */ (byId('delivery-status'));
const form = /** @type {HTMLFormElement} */ (byId('webhook-form'));
const fireForm = /** @type {HTMLFormElement} */ (byId('fire-form'));
const DELIVERY_ROWS = 200;
const deliveryPages = pager(byId('delivery-pager'), () => void refreshDeliveries().catch(() => {}));

byId('webhook-events').append(
  ...EVENT_TYPES.map((type) => h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'events', value: type }), ` ${type}`)),
);
fillOptions(/** @type {HTMLSelectElement} */ (byId('fire-event-type')), EVENT_TYPES);
fillOptions(deliveryStatus, DELIVERY_STATUSES);

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const v = formValues(form);
  /** @type {Record<string, unknown>} */
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

/** @param {Endpoint} ep */
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
    h('td', { class: 'small', text: ep.events?.length ? ep.events.join(', ') : 'every event' }),
    h(
      'td',
      {},
      h('span', { class: 'mono small', text: `${ep.secret.slice(0, 10)}…` }),
      ' ',
      copyButton(ep.secret, `the secret of ${ep.url}`, 'copy-secret'),
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
        onclick: (/** @type {MouseEvent} */ e) =>
          act(/** @type {Element} */ (e.currentTarget), `Endpoint ${ep.url} deleted`, () => api('DELETE', `/_sandbox/webhooks/${ep.id}`)),
      }),
    ),
  );
}

/** @param {Delivery} d */
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

const endpoints = listView(byId('endpoint-rows'), byId('endpoint-empty'), {
  key: (/** @type {Endpoint} */ ep) => ep.id,
  render: endpointRow,
  extra: accountNames,
});
const deliveries = listView(byId('delivery-rows'), byId('delivery-empty'), {
  key: (/** @type {Delivery} */ d) => d.id,
  render: deliveryRow,
});

async function refreshEndpoints() {
  state.endpoints = await api('GET', '/_sandbox/webhooks');
  endpoints.render(state.endpoints);
}

async function refreshDeliveries() {
  const status = deliveryStatus.value;
  const after = deliveryPages.after;
  // newest first (by creation), a page at a time
  /** @type {{ items: Delivery[], next: string | null }} */
  const { items, next } = await apiPage(`/_sandbox/webhooks/deliveries${query({ status, limit: DELIVERY_ROWS, after })}`);
  if (status !== deliveryStatus.value || after !== deliveryPages.after) return;
  deliveryPages.setNext(next);
  deliveries.render(items);
}

deliveryStatus.addEventListener('change', () => {
  deliveryPages.reset();
  refreshDeliveries().catch(() => {});
});

/** Endpoints first: the faults and deliveries name theirs by URL. */
async function refreshAll() {
  await refreshEndpoints();
  await Promise.all([refreshDeliveries(), refreshWebhookFaults()]);
}

/** @type {import('./app.js').View} */
export const webhooksView = {
  topics: ['webhooks', 'deliveries', 'webhook-faults'],
  load: () => [refreshAll],
  stale: ({ topics }) => [
    ...(topics.includes('webhooks') ? [refreshAll] : []),
    ...(topics.includes('deliveries') ? [refreshDeliveries] : []),
    ...(topics.includes('webhook-faults') ? [refreshWebhookFaults] : []),
  ],
};
