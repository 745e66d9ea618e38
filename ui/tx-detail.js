// The chosen transaction in full, beside the list: a charge's QR code and copy-and-paste code, a
// transfer's key and receiver, the scheduled outcome, its ledger entries, fire-an-event and its
// webhook deliveries; read again when the change stream names it.
import { api, ApiError, query } from './api.js';
import { byId, fill, h, reconcile } from './dom.js';
import { badge, dateTime, documentText, facts, money, shortId, typeLabel } from './format.js';
import { act, copyButton } from './kit.js';
import { accountName, accountNames, deliveryBlock, firedText } from './shared.js';
import { actions } from './tx-actions.js';
import { EVENT_TYPES } from './vocabulary.js';

/** @typedef {import('./server-types.js').Transaction} Transaction */
/** @typedef {import('./server-types.js').TransactionDetail} TransactionDetail */
/** @typedef {import('./server-types.js').Delivery} Delivery */
/** @typedef {import('./server-types.js').Party} Party */

const rows = byId('tx-rows');
const detail = byId('tx-detail');
const detailTitle = byId('tx-detail-title');
/** @type {string | null} the transaction whose details are shown */
let selected = null;
/** @type {string | null} its account (known once its details are read) */
let selectedAccount = null;

/** The transaction shown, and its account once read. */
export const selection = () => ({ id: selected, accountId: selectedAccount });

/** @param {TransactionDetail & { type: 'CASH_IN' }} t */
function qrBlock(t) {
  const img =
    typeof t.qrCode === 'string' && t.qrCode.startsWith('data:image/')
      ? h('img', { class: 'qr', src: t.qrCode, alt: `QR code to pay ${money(t.amount)}`, width: '168', height: '168' })
      : null;
  if (!t.pixCode && !img) return null;
  const code = h('textarea', {
    class: 'pix-code mono',
    readonly: true,
    rows: '4',
    id: 'pix-code',
    'aria-label': 'PIX copy-and-paste code',
    dataset: { fk: 'pix-code' },
  });
  code.value = t.pixCode ?? '';
  return h(
    'div',
    { class: 'qr-block' },
    img,
    h(
      'div',
      { class: 'pix' },
      h('label', { for: 'pix-code', text: 'Copy-and-paste code' }),
      code,
      t.pixCode ? copyButton(t.pixCode, 'the PIX code', 'copy-pix') : null,
    ),
  );
}

/** @param {Partial<Party> | undefined} p */
const party = (p) =>
  p
    ? `${p.name ?? '—'} · ${documentText(p.document)}${p.ispb ? ` · ISPB ${p.ispb}` : ''}${p.account_number ? ` · account ${p.account_number}` : ''}${p.account_type ? ` (${p.account_type})` : ''}`
    : null;
/** @param {Transaction['error']} e */
const errorText = (e) => (e ? h('span', { class: 'error-text' }, h('strong', { text: e.code }), ` ${e.message}`) : null);
/** @param {Transaction['outcome']} o */
const outcomeText = (o) =>
  o ? `rule ${o.ruleId}: ${o.action}${o.at ? ` at ${dateTime(o.at)}` : ''}${o.code ? ` (${o.code})` : ''}` : null;

/** @param {Transaction} t */
function fireForm(t) {
  const types = EVENT_TYPES.filter((e) => e.startsWith(t.type === 'CASH_IN' ? 'cashin.' : 'cashout.'));
  const select = h(
    'select',
    { id: 'fire-type', dataset: { fk: 'fire-type' } },
    h('option', { value: '', text: 'current status' }),
    types.map((v) => h('option', { value: v, text: v })),
  );
  const button = h('button', { type: 'submit', class: 'small', dataset: { fk: 'fire' }, text: 'Fire event' });
  return h(
    'form',
    {
      class: 'inline-form',
      onsubmit: (/** @type {SubmitEvent} */ e) => {
        e.preventDefault();
        act(button, firedText, () =>
          api('POST', '/_sandbox/webhooks/fire', select.value ? { transactionId: t.id, type: select.value } : { transactionId: t.id }),
        );
      },
    },
    h('label', { for: 'fire-type', text: 'Send a webhook event now' }),
    select,
    button,
  );
}

/** @param {string} ref */
const refName = (ref) =>
  ref === 'world'
    ? 'outside the sandbox'
    : ref.startsWith('account:')
      ? accountName(ref.slice(8))
      : ref.startsWith('wallet:')
        ? `wallet ${shortId(ref.slice(7))}`
        : ref;

/**
 * The ledger movements the transaction caused (double entry: from → to).
 * @param {TransactionDetail['ledger']} entries
 */
function ledgerList(entries) {
  if (entries.length === 0) return null;
  return [
    h('h3', { text: 'Ledger' }),
    h(
      'ul',
      { class: 'plain ledger' },
      entries.map((e) =>
        h(
          'li',
          {},
          h('span', { class: 'mono small', text: e.kind }),
          ' ',
          h('strong', { text: money(e.amount) }),
          ` ${refName(e.from)} → ${refName(e.to)}`,
        ),
      ),
    ),
  ];
}

/** @param {{ t: TransactionDetail, deliveries: Delivery[] }} shown */
function detailView({ t, deliveries }) {
  /** @type {[string, import('./dom.js').Child][]} */
  const common = [
    ['Id', h('span', {}, h('span', { class: 'mono', text: t.id }), ' ', copyButton(t.id, 'the transaction id', 'copy-id'))],
    ['Account', accountName(t.accountId)],
    ['Merchant', t.merchantId ? shortId(t.merchantId) : null],
    ['Description', t.description],
    ['Created', dateTime(t.createdAt)],
    ['Updated', dateTime(t.updatedAt)],
  ];
  /** @type {[string, import('./dom.js').Child][]} */
  const specific =
    t.type === 'CASH_IN'
      ? [
          ['External id', t.externalId],
          [
            'Customer',
            t.customer
              ? `${t.customer.name} · ${documentText(t.customer.document)}${t.customer.email ? ` · ${t.customer.email}` : ''}`
              : null,
          ],
          ['Expires', dateTime(t.expiresAt)],
          [
            'Split',
            Array.isArray(t.split) && t.split.length
              ? t.split.map((s) => `${money(s.share)} → wallet ${shortId(s.walletId)} (${s.mode} ${s.value})`).join('; ')
              : null,
          ],
          ['Paid', t.paidAt ? dateTime(t.paidAt) : null],
          ['Payer', party(t.payer)],
        ]
      : [
          ['PIX key', h('span', {}, h('span', { class: 'mono', text: t.details.key }), ` (${t.details.keyType})`)],
          ['Recipient', `${t.details.name}${t.details.document ? ` · ${documentText(t.details.document)}` : ' · no document given'}`],
          ['Settles', t.status === 'PROCESSING' ? dateTime(t.settleAt) : null],
          ['Settled', t.settledAt ? dateTime(t.settledAt) : null],
          ['Receiver', party(t.receiver)],
          ['Idempotency key', t.idempotencyKey ? h('span', { class: 'mono small', text: t.idempotencyKey }) : null],
        ];
  /** @type {[string, import('./dom.js').Child][]} */
  const outcome = [
    ['End-to-end id', t.endToEndId ? h('span', { class: 'mono', text: t.endToEndId }) : null],
    ['Error', errorText(t.error)],
    ['Scheduled', t.status === 'WAITING_PAYMENT' || t.status === 'PROCESSING' ? outcomeText(t.outcome) : null],
  ];
  return h(
    'article',
    { class: 'tx' },
    h(
      'div',
      { class: 'tx-head' },
      badge(t.status),
      h('span', { class: 'amount', text: money(t.amount) }),
      h('span', { class: 'actions' }, actions(t)),
    ),
    t.type === 'CASH_IN' ? qrBlock(t) : null,
    facts([...common, ...specific, ...outcome]),
    ledgerList(t.ledger),
    fireForm(t),
    h('h3', { text: 'Webhook deliveries' }),
    deliveries.length
      ? h('ul', { class: 'deliveries' }, deliveries.map(deliveryBlock))
      : h('p', { class: 'muted small', text: 'None: no endpoint of this account wanted its events (register one on the Webhooks tab).' }),
  );
}

export async function refreshDetail() {
  if (!selected) return;
  const id = selected;
  /** @type {[TransactionDetail, Delivery[]]} */
  let read;
  try {
    read = await Promise.all([
      /** @type {Promise<TransactionDetail>} */ (api('GET', `/_sandbox/transactions/${id}`)),
      /** @type {Promise<Delivery[]>} */ (api('GET', `/_sandbox/webhooks/deliveries${query({ transactionId: id })}`)),
    ]);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && id === selected) {
      selected = selectedAccount = null;
      detailTitle.textContent = 'Transaction';
      fill(detail, h('p', { class: 'muted', text: `Transaction ${shortId(id)} no longer exists (the sandbox was reset?).` }));
      return;
    }
    throw e;
  }
  const [t, deliveries] = read;
  if (id !== selected) return;
  const scoped = selectedAccount;
  selectedAccount = t.accountId;
  if (scoped !== selectedAccount) document.dispatchEvent(new Event('scope-change'));
  detailTitle.textContent = `${typeLabel(t.type)} ${shortId(t.id)}`;
  if (!detail.querySelector('[data-key]')) detail.replaceChildren();
  reconcile(detail, [{ t, deliveries }], { key: (x) => x.t.id, render: detailView, extra: accountNames });
}

/**
 * Shows a transaction's details; `focus` moves keyboard focus to them (after a click).
 * @param {string} id
 * @param {boolean} [focus]
 */
export async function select(id, focus = false) {
  if (id !== selected) {
    selectedAccount = null;
    detailTitle.textContent = 'Transaction';
    fill(detail, h('p', { class: 'muted', text: 'Loading…' }));
  }
  selected = id;
  for (const tr of /** @type {HTMLCollectionOf<HTMLElement>} */ (rows.children)) {
    tr.classList.toggle('selected', tr.dataset.key === id);
    if (tr.dataset.key === id) tr.setAttribute('aria-current', 'true');
    else tr.removeAttribute('aria-current');
  }
  await refreshDetail().catch(() => {});
  if (focus) detailTitle.focus();
}
