// The transactions panel: a filterable list (newest first), a page at a time, and the chosen
// transaction's details beside it (tx-detail.js), with the actions its state allows (tx-actions.js).
import { apiPage, query } from './api.js';
import { byId, h, listView } from './dom.js';
import { badge, dateTime, money, shortId, timeOnly, typeLabel } from './format.js';
import { pager } from './pager.js';
import { fillOptions } from './shared.js';
import { actions, label } from './tx-actions.js';
import { refreshDetail, select, selection } from './tx-detail.js';
import { TRANSACTION_STATUSES, TRANSACTION_TYPES } from './vocabulary.js';

/** @typedef {import('./server-types.js').Transaction} Transaction */

const MAX_ROWS = 200;
const filters = /** @type {HTMLFormElement} */ (byId('tx-filters'));
const rows = byId('tx-rows');
const count = byId('tx-count');
const pages = pager(byId('tx-pager'), () => void refreshList().catch(() => {}));

/** @type {Record<import('./vocabulary.js').TransactionType, string>} */
const KINDS = { CASH_IN: 'Charges (cash-in)', CASH_OUT: 'Transfers (cash-out)' };
fillOptions(
  /** @type {HTMLSelectElement} */ (filters.elements.namedItem('type')),
  TRANSACTION_TYPES,
  (t) => KINDS[/** @type {keyof KINDS} */ (t)],
);
fillOptions(/** @type {HTMLSelectElement} */ (filters.elements.namedItem('status')), TRANSACTION_STATUSES);

/**
 * Description first; then the kind, short id and the other party (the key, for a transfer).
 * @param {Transaction} t
 */
function summary(t) {
  const kind = [h('strong', { text: typeLabel(t.type) }), ' ', h('span', { class: 'mono', text: shortId(t.id) })];
  const party =
    t.type === 'CASH_OUT'
      ? [' → ', h('span', { class: 'mono', text: t.details.key }), ` ${t.details.keyType} · ${t.details.name}`]
      : t.customer.name
        ? [` · ${t.customer.name}`]
        : [];
  return [h('div', { class: 'desc', text: t.description || '—' }), h('div', { class: 'muted small' }, kind, party)];
}

/** @param {Transaction} t */
function row(t) {
  const selected = selection().id;
  const open = h('button', {
    type: 'button',
    class: 'small',
    dataset: { fk: 'details' },
    'aria-controls': 'tx-detail',
    'aria-label': `Details of ${label(t)}`,
    text: 'Details',
    onclick: () => select(t.id, true),
  });
  return h(
    'tr',
    { class: t.id === selected ? 'selected' : '', 'aria-current': t.id === selected ? 'true' : undefined },
    h(
      'td',
      { class: 'nowrap' },
      h('span', { class: 'mono small', text: timeOnly(t.createdAt) }),
      h('div', { class: 'mono small muted', text: dateTime(t.createdAt).slice(0, 10) }),
    ),
    h('td', { class: 'wrap' }, summary(t)),
    h('td', {}, badge(t.status)),
    h('td', { class: 'num strong', text: money(t.amount) }),
    h('td', { class: 'actions' }, open, actions(t)),
  );
}

const list = listView(rows, byId('tx-empty'), {
  key: (/** @type {Transaction} */ t) => t.id,
  render: row,
  extra: (t) => t.id === selection().id,
});
count.textContent = 'Loading transactions…';

let generation = 0;
async function refreshList() {
  const f = /** @type {Record<string, string>} */ (Object.fromEntries(new FormData(filters)));
  const gen = ++generation;
  /** @type {{ items: Transaction[], next: string | null }} */
  const { items, next } = await apiPage(`/_sandbox/transactions${query({ ...f, limit: MAX_ROWS, after: pages.after })}`);
  if (gen !== generation) return; // the filters or the page changed meanwhile: a newer answer is on its way
  pages.setNext(next);
  list.render(items);
  const n = `${items.length} transaction${items.length === 1 ? '' : 's'}`;
  count.textContent =
    pages.page > 1 ? `Page ${pages.page}: ${n}, older ones.` : next !== null ? `Showing the newest ${items.length} transactions.` : n;
  count.dataset.refreshes = String(Number(count.dataset.refreshes ?? 0) + 1); // tests wait for a refresh by it
}

filters.addEventListener('change', () => {
  pages.reset();
  refreshList().catch(() => {});
  document.dispatchEvent(new Event('scope-change'));
});

/** the account filter, when one is chosen */
const filtered = () => /** @type {HTMLSelectElement} */ (filters.elements.namedItem('accountId')).value || null;

/** @type {import('./app.js').View} */
export const transactionsView = {
  topics: ['transactions', 'deliveries', 'webhooks'],
  // the account filter's tenant alone, unless the details shown are of another account
  scope() {
    const { accountId } = selection();
    return accountId === null || accountId === filtered() ? filtered() : null;
  },
  load: () => [refreshList, refreshDetail],
  // the details: when the change names their transaction, or may have (no ids), or renamed what they show
  stale({ topics, transactionIds }) {
    const { id } = selection();
    const named = id !== null && (transactionIds === null || transactionIds.includes(id));
    return [
      ...(topics.includes('transactions') ? [refreshList] : []),
      ...(id !== null && (named || topics.includes('webhooks') || topics.includes('accounts')) ? [refreshDetail] : []),
    ];
  },
};
