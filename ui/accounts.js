// The accounts panel: accounts with balance and settings (edit, credit, create), and the
// merchants of one account with their wallets and balances (status, wallet credit).
import { api, query } from './api.js';
import { byId, fill, h, listView } from './dom.js';
import { badge, documentText, money, parseReais, seconds, shortId } from './format.js';
import { copyButton, openForm } from './kit.js';
import { fillAccountPickers, state } from './shared.js';
import { MERCHANT_STATUSES } from './vocabulary.js';

/** @typedef {import('./server-types.js').Account} Account */
/** @typedef {import('./server-types.js').Merchant} Merchant */
/** @typedef {import('./kit.js').Field} Field */

const merchantAccount = /** @type {HTMLSelectElement} */ (byId('merchant-account'));
const created = byId('account-created');

/** @param {string} v */
const optionalInt = (v) => (v === '' ? null : Number(v));

/** @param {string} text */
function centsFrom(text) {
  const cents = parseReais(text);
  if (cents === null || Number.isNaN(cents) || cents === 0)
    throw new Error('write an amount in reais, such as 150,00 (negative to take money out)');
  return cents;
}

/** @type {Field} */
const amountField = {
  name: 'amount',
  label: 'Amount (R$)',
  required: true,
  inputmode: 'decimal',
  placeholder: '150,00',
  hint: 'Negative to take money out; a balance never goes below zero.',
};

/**
 * @param {string} what
 * @param {string} path
 */
function credit(what, path) {
  return openForm({
    title: `Credit ${what}`,
    fields: [amountField, { name: 'description', label: 'Description', placeholder: 'test top-up' }],
    submit: 'Move money',
    done: (/** @type {{ balance: number }} */ r) => `Balance of ${what} is now ${money(r.balance)}`,
    onSubmit: (v) => api('POST', path, { amount: centsFrom(v.amount), ...(v.description ? { description: v.description } : {}) }),
  });
}

/**
 * @param {Partial<Account>} a
 * @returns {Field[]}
 */
const settingsFields = (a) => [
  { name: 'splitEnabled', label: 'Split feature enabled', type: 'checkbox', value: a.splitEnabled ?? false },
  {
    name: 'autoPayAfterSeconds',
    label: 'Pay charges automatically after (seconds)',
    type: 'number',
    min: '0',
    step: '1',
    value: a.autoPayAfterSeconds ?? '',
    hint: 'Empty: charges wait to be paid.',
  },
  {
    name: 'settleAfterSeconds',
    label: 'Settle transfers after (seconds)',
    type: 'number',
    min: '0',
    step: '1',
    value: a.settleAfterSeconds ?? 2,
    hint: '0: on the next tick.',
  },
];
/** @param {Record<string, any>} v */
const settingsBody = (v) => ({
  splitEnabled: v.splitEnabled,
  autoPayAfterSeconds: optionalInt(v.autoPayAfterSeconds),
  settleAfterSeconds: Number(v.settleAfterSeconds || 0),
});

/** @param {Account} a */
function editSettings(a) {
  return openForm({
    title: `Settings of ${a.name}`,
    fields: settingsFields(a),
    submit: 'Save settings',
    done: `Settings of ${a.name} saved`,
    onSubmit: (v) => api('PATCH', `/_sandbox/accounts/${a.id}`, settingsBody(v)),
  });
}

/** @param {Account} acc */
function showCredentials(acc) {
  const secret = acc.client_secret;
  fill(
    created,
    h('p', {}, h('strong', { text: `Account “${acc.name}” created.` }), ' Its secret is shown this once:'),
    h(
      'p',
      {},
      'client_id ',
      h('code', { text: acc.client_id }),
      ' ',
      copyButton(acc.client_id, 'the client_id'),
      ' client_secret ',
      h('code', { text: secret ?? '—' }),
      ' ',
      secret ? copyButton(secret, 'the client_secret') : null,
    ),
    h('button', {
      type: 'button',
      class: 'small',
      text: 'Dismiss',
      onclick: () => {
        created.hidden = true;
        byId('account-new').focus(); // the button is gone: focus must not fall to <body>
      },
    }),
  );
  created.hidden = false;
}

byId('account-new').addEventListener('click', () =>
  openForm({
    title: 'New account',
    intro: 'An isolated tenant with its own credentials (generated when left empty).',
    fields: [
      { name: 'name', label: 'Name', required: true },
      { name: 'balance', label: 'Opening balance (R$)', inputmode: 'decimal', placeholder: '0,00' },
      { name: 'client_id', label: 'client_id (optional)' },
      { name: 'client_secret', label: 'client_secret (optional, 8+ characters)' },
      ...settingsFields({ splitEnabled: true }),
    ],
    submit: 'Create account',
    done: (acc) => `Account ${acc.name} created`,
    onSubmit: async (v) => {
      /** @type {Record<string, unknown>} */
      const body = { name: v.name, ...settingsBody(v) };
      if (v.client_id) body.client_id = v.client_id;
      if (v.client_secret) body.client_secret = v.client_secret;
      const balance = parseReais(v.balance);
      if (Number.isNaN(balance)) throw new Error('the opening balance must be an amount in reais, such as 1.000,00');
      if (balance) body.balance = balance;
      /** @type {Account} */
      const acc = await api('POST', '/_sandbox/accounts', body);
      showCredentials(acc);
      return acc;
    },
  }),
);

/** @param {Account} a */
function accountRow(a) {
  const b = (/** @type {string} */ text, /** @type {string} */ fk, /** @type {() => void} */ onclick) =>
    h('button', { type: 'button', class: 'small', dataset: { fk }, 'aria-label': `${text} ${a.name}`, text, onclick });
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, a.name, h('div', { class: 'mono small muted', text: a.id })),
    h('td', { class: 'mono small', text: a.client_id }),
    h('td', { class: 'num strong', text: money(a.balance) }),
    h('td', { text: a.splitEnabled ? 'on' : 'off' }),
    h('td', { text: seconds(a.autoPayAfterSeconds) }),
    h('td', { text: seconds(a.settleAfterSeconds) }),
    h(
      'td',
      { class: 'actions' },
      b('Settings', 'settings', () => editSettings(a)),
      b('Credit', 'credit', () => credit(a.name, `/_sandbox/accounts/${a.id}/credit`)),
    ),
  );
}

/** @param {Merchant} m */
function setStatus(m) {
  return openForm({
    title: `Status of ${m.name}`,
    intro: 'An inactive or suspended merchant cannot get tokens, and splits to its wallet are refused.',
    fields: [{ name: 'status', label: 'Status', type: 'select', value: m.status, options: MERCHANT_STATUSES.map((s) => [s, s]) }],
    submit: 'Set status',
    done: (/** @type {Merchant} */ r) => `${m.name} is now ${r.status}`,
    onSubmit: (v) => api('PATCH', `/_sandbox/merchants/${m.id}`, { status: v.status }),
  });
}

/** @param {Merchant} m */
function merchantRow(m) {
  const wallets = m.wallets;
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, m.name, h('div', { class: 'mono small muted', text: m.id })),
    h('td', { text: documentText(m.document) }),
    h('td', {}, badge(m.status)),
    h(
      'td',
      {},
      h(
        'ul',
        { class: 'plain' },
        wallets.map((w) =>
          h(
            'li',
            {},
            h('strong', { text: money(w.balance) }),
            ` ${w.name} `,
            h('span', { class: 'mono small muted', text: shortId(w.walletId) }),
            ' ',
            copyButton(w.walletId, `wallet id of ${m.name}`, `copy-${w.walletId}`),
          ),
        ),
      ),
    ),
    h(
      'td',
      { class: 'actions' },
      h('button', {
        type: 'button',
        class: 'small',
        dataset: { fk: 'status' },
        'aria-label': `Status of ${m.name}`,
        text: 'Status',
        onclick: () => setStatus(m),
      }),
      wallets.map((w) =>
        h('button', {
          type: 'button',
          class: 'small',
          dataset: { fk: `credit-${w.walletId}` },
          'aria-label': `Credit wallet of ${m.name}`,
          text: 'Credit wallet',
          onclick: () => credit(`${m.name}'s wallet`, `/_sandbox/wallets/${w.walletId}/credit`),
        }),
      ),
    ),
  );
}

const accounts = listView(byId('account-rows'), null, { key: (/** @type {Account} */ a) => a.id, render: accountRow });
const merchants = listView(byId('merchant-rows'), byId('merchant-empty'), {
  key: (/** @type {Merchant} */ m) => m.id,
  render: merchantRow,
});

/** The accounts, read whenever one changes: names and pickers everywhere show them, and the table here. */
export async function refreshAccounts() {
  state.accounts = await api('GET', '/_sandbox/accounts');
  fillAccountPickers();
  accounts.render(state.accounts);
}

async function refreshMerchants() {
  const accountId = merchantAccount.value;
  if (!accountId) return;
  /** @type {Merchant[]} */
  const list = await api('GET', `/_sandbox/merchants${query({ accountId })}`);
  if (accountId === merchantAccount.value) merchants.render(list);
}

merchantAccount.addEventListener('change', () => void refreshMerchants().catch(() => {}));

/** @type {import('./app.js').View} */
export const accountsView = {
  topics: ['balances', 'merchants'],
  // the accounts themselves are read by the page for every view (app.js)
  load: () => [refreshMerchants],
  stale: ({ topics }) => [
    ...(topics.includes('balances') ? [refreshAccounts] : []),
    ...(topics.includes('balances') || topics.includes('merchants') ? [refreshMerchants] : []),
  ],
};
