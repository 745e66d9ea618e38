// The transactions panel: a filterable list (newest first) and the chosen transaction's
// details — QR code and copy-and-paste code for a charge, key and outcome for a transfer —
// with the control actions its state allows, fire-an-event and its webhook deliveries.
import { api, ApiError, apiPage, asList, query } from './api.js';
import { fill, h, reconcile, show } from './dom.js';
import { badge, dateTime, documentText, facts, money, shortId, timeOnly, toCents, typeLabel } from './format.js';
import { act, copyButton, openForm } from './kit.js';
import { pager } from './pager.js';
import { accountName, deliveryBlock, EVENT_TYPES, firedText, state } from './shared.js';

const MAX_ROWS = 200;
const filters = document.getElementById('tx-filters');
const rows = document.getElementById('tx-rows');
const empty = document.getElementById('tx-empty');
const count = document.getElementById('tx-count');
const detail = document.getElementById('tx-detail');
const detailTitle = document.getElementById('tx-detail-title');
let selected = null;
const pages = pager(document.getElementById('tx-pager'), () => refresh().catch(() => {}));

const label = (t) => `${t.type === 'CASH_IN' ? 'charge' : 'transfer'} ${shortId(t.id)}`;

const payerFields = [
  { name: 'name', label: 'Payer name' },
  {
    name: 'document',
    label: 'Payer document',
    inputmode: 'numeric',
    pattern: '[0-9]{11}|[0-9]{14}',
    title: 'CPF (11 digits) or CNPJ (14 digits)',
    hint: 'CPF or CNPJ, digits only',
  },
  { name: 'ispb', label: 'Payer bank ISPB', inputmode: 'numeric', pattern: '[0-9]{8}', title: '8 digits' },
  { name: 'account_number', label: 'Account number' },
  { name: 'account_type', label: 'Account type', placeholder: 'CACC' },
];

function pay(t) {
  return openForm({
    title: `Pay ${label(t)}`,
    intro: `${money(toCents(t.amount))}. Payer fields are optional: the sandbox makes up the ones left empty.`,
    fields: payerFields,
    submit: 'Pay charge',
    done: `Charge ${shortId(t.id)} paid`,
    onSubmit: (v) => {
      const payer = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== ''));
      return api('POST', `/_sandbox/charges/${t.id}/pay`, Object.keys(payer).length ? { payer } : {});
    },
  });
}

function fail(t) {
  return openForm({
    title: `Fail ${label(t)}`,
    intro: `The ${money(toCents(t.amount))} return to the payer's balance; the lookup and the webhook carry this error.`,
    fields: [
      {
        name: 'code',
        label: 'Error code',
        required: true,
        pattern: '[A-Z][A-Z0-9_]{1,63}',
        title: 'upper-case letters, digits and _',
        placeholder: 'DOCUMENT_MISMATCH',
      },
      { name: 'message', label: 'Error message', required: true, placeholder: "the receiver's document differs from the one given" },
    ],
    submit: 'Fail transfer',
    danger: true,
    done: `Transfer ${shortId(t.id)} failed`,
    onSubmit: (v) => api('POST', `/_sandbox/transfers/${t.id}/fail`, { code: v.code, message: v.message }),
  });
}

const simple = (t, verb, path, done) => (e) => act(e.currentTarget, done, () => api('POST', `/_sandbox/${path}/${t.id}/${verb}`));

/** The buttons the transaction's state allows (the transition tables decide the rest). */
function actions(t) {
  const b = (text, fk, onclick, cls = 'small') =>
    h('button', { type: 'button', class: cls, dataset: { fk }, 'aria-label': `${text} ${label(t)}`, text, onclick });
  if (t.type === 'CASH_IN' && t.status === 'WAITING_PAYMENT')
    return [
      b('Pay', 'pay', () => pay(t), 'small primary'),
      b('Expire', 'expire', simple(t, 'expire', 'charges', `Charge ${shortId(t.id)} expired`)),
      b('Cancel', 'cancel', simple(t, 'cancel', 'charges', `Charge ${shortId(t.id)} cancelled`)),
    ];
  if (t.type === 'CASH_OUT' && t.status === 'PROCESSING')
    return [
      b('Complete', 'complete', simple(t, 'complete', 'transfers', `Transfer ${shortId(t.id)} completed`), 'small primary'),
      b('Fail', 'fail', () => fail(t), 'small danger'),
    ];
  return [];
}

/** Description first; then the kind, short id and the other party (the key, for a transfer). */
function summary(t) {
  const kind = [h('strong', { text: typeLabel(t.type) }), ' ', h('span', { class: 'mono', text: shortId(t.id) })];
  const d = t.details ?? {};
  const party =
    t.type === 'CASH_OUT'
      ? [' → ', h('span', { class: 'mono', text: d.key ?? '—' }), ` ${d.keyType ?? ''} · ${d.name ?? ''}`]
      : t.customer?.name
        ? [` · ${t.customer.name}`]
        : [];
  return [h('div', { class: 'desc', text: t.description ?? '—' }), h('div', { class: 'muted small' }, kind, party)];
}

function row(t) {
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
    h('td', { class: 'num strong', text: money(toCents(t.amount)) }),
    h('td', { class: 'actions' }, open, actions(t)),
  );
}

function qrBlock(t) {
  const img =
    typeof t.qrCode === 'string' && t.qrCode.startsWith('data:image/')
      ? h('img', { class: 'qr', src: t.qrCode, alt: `QR code to pay ${money(toCents(t.amount))}`, width: '168', height: '168' })
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

const party = (p) =>
  p
    ? `${p.name ?? '—'} · ${documentText(p.document)}${p.ispb ? ` · ISPB ${p.ispb}` : ''}${p.account_number ? ` · account ${p.account_number}` : ''}${p.account_type ? ` (${p.account_type})` : ''}`
    : null;
const errorText = (e) => (e ? h('span', { class: 'error-text' }, h('strong', { text: e.code ?? 'ERROR' }), ` ${e.message ?? ''}`) : null);
const outcomeText = (o) =>
  o ? `rule ${o.ruleId}: ${o.action}${o.at ? ` at ${dateTime(o.at)}` : ''}${o.code ? ` (${o.code})` : ''}` : null;

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
      onsubmit: (e) => (
        e.preventDefault(),
        act(button, firedText, () =>
          api('POST', '/_sandbox/webhooks/fire', select.value ? { transactionId: t.id, type: select.value } : { transactionId: t.id }),
        )
      ),
    },
    h('label', { for: 'fire-type', text: 'Send a webhook event now' }),
    select,
    button,
  );
}

const refName = (ref) =>
  ref === 'world'
    ? 'outside the sandbox'
    : ref?.startsWith('account:')
      ? accountName(ref.slice(8))
      : ref?.startsWith('wallet:')
        ? `wallet ${shortId(ref.slice(7))}`
        : String(ref);

/** The ledger movements the transaction caused (double entry: from → to). */
function ledgerList(entries) {
  if (!Array.isArray(entries) || entries.length === 0) return null;
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

function detailView({ t, deliveries }) {
  const common = [
    ['Id', h('span', {}, h('span', { class: 'mono', text: t.id }), ' ', copyButton(t.id, 'the transaction id', 'copy-id'))],
    ['Account', accountName(t.accountId)],
    ['Merchant', t.merchantId ? shortId(t.merchantId) : null],
    ['Description', t.description],
    ['Created', dateTime(t.createdAt)],
    ['Updated', dateTime(t.updatedAt)],
  ];
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
          ['PIX key', t.details ? h('span', {}, h('span', { class: 'mono', text: t.details.key }), ` (${t.details.keyType})`) : null],
          [
            'Recipient',
            t.details
              ? `${t.details.name ?? '—'}${t.details.document ? ` · ${documentText(t.details.document)}` : ' · no document given'}`
              : null,
          ],
          ['Settles', t.status === 'PROCESSING' ? dateTime(t.settleAt) : null],
          ['Settled', t.settledAt ? dateTime(t.settledAt) : null],
          ['Receiver', party(t.receiver)],
          ['Idempotency key', t.idempotencyKey ? h('span', { class: 'mono small', text: t.idempotencyKey }) : null],
        ];
  const outcome = [
    ['End-to-end id', (t.endToEndId ?? t.end_to_end_id) ? h('span', { class: 'mono', text: t.endToEndId ?? t.end_to_end_id }) : null],
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
      h('span', { class: 'amount', text: money(toCents(t.amount)) }),
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

async function refreshDetail() {
  if (!selected) return;
  const id = selected;
  let t;
  try {
    t = await api('GET', `/_sandbox/transactions/${id}`);
  } catch (e) {
    if (e instanceof ApiError && e.status === 404 && id === selected) {
      selected = null;
      detailTitle.textContent = 'Transaction';
      fill(detail, h('p', { class: 'muted', text: `Transaction ${shortId(id)} no longer exists (the sandbox was reset?).` }));
      return;
    }
    throw e;
  }
  const deliveries = asList(await api('GET', `/_sandbox/webhooks/deliveries${query({ transactionId: id })}`));
  if (id !== selected) return;
  detailTitle.textContent = `${typeLabel(t.type)} ${shortId(t.id)}`;
  if (!detail.querySelector('[data-key]')) detail.replaceChildren();
  reconcile(detail, [{ t, deliveries, names: state.accounts.map((a) => a.name) }], { key: (x) => x.t.id, render: detailView });
}

/** Shows a transaction's details; `focus` moves keyboard focus to them (after a click). */
export async function select(id, focus = false) {
  selected = id;
  for (const tr of rows.children) {
    tr.classList.toggle('selected', tr.dataset.key === id);
    if (tr.dataset.key === id) tr.setAttribute('aria-current', 'true');
    else tr.removeAttribute('aria-current');
  }
  await refreshDetail().catch(() => {});
  if (focus) detailTitle.focus();
}

let generation = 0;
export async function refresh() {
  const f = Object.fromEntries(new FormData(filters));
  const gen = ++generation;
  const { items: list, next } = await apiPage(`/_sandbox/transactions${query({ ...f, limit: MAX_ROWS, after: pages.after })}`);
  if (gen !== generation) return; // the filters or the page changed meanwhile: a newer answer is on its way
  pages.setNext(next);
  reconcile(rows, list.slice(0, MAX_ROWS), { key: (t) => t.id, render: row, extra: (t) => t.id === selected });
  show(empty, list.length === 0);
  const n = `${list.length} transaction${list.length === 1 ? '' : 's'}`;
  count.textContent =
    pages.page > 1 ? `Page ${pages.page}: ${n}, older ones.` : next !== null ? `Showing the newest ${list.length} transactions.` : n;
  count.dataset.refreshes = String(Number(count.dataset.refreshes ?? 0) + 1); // tests wait for a refresh by it
  await refreshDetail();
}

filters.addEventListener('change', () => {
  pages.reset();
  refresh().catch(() => {});
});
