// The accounts panel: accounts with balance and settings (edit, credit, create), and the
// merchants of one account with their wallets and balances (status, wallet credit).
import { api, asList, query } from './api.js';
import { fill, h, reconcile, show } from './dom.js';
import { badge, documentText, money, parseReais, seconds, shortId } from './format.js';
import { copyButton, openForm } from './kit.js';
import { fillAccountPickers, state } from './shared.js';

const accountRows = document.getElementById('account-rows');
const merchantRows = document.getElementById('merchant-rows');
const merchantEmpty = document.getElementById('merchant-empty');
const merchantAccount = document.getElementById('merchant-account');
const created = document.getElementById('account-created');

const clientIdOf = (a) => a.client_id ?? a.clientId ?? '—';
const optionalInt = (v) => (v === '' ? null : Number(v));

function centsFrom(text) {
  const cents = parseReais(text);
  if (cents === null || Number.isNaN(cents) || cents === 0)
    throw new Error('write an amount in reais, such as 150,00 (negative to take money out)');
  return cents;
}

const amountField = {
  name: 'amount',
  label: 'Amount (R$)',
  required: true,
  inputmode: 'decimal',
  placeholder: '150,00',
  hint: 'Negative to take money out; a balance never goes below zero.',
};

function credit(what, path) {
  return openForm({
    title: `Credit ${what}`,
    fields: [amountField, { name: 'description', label: 'Description', placeholder: 'test top-up' }],
    submit: 'Move money',
    done: (r) => `Balance of ${what} is now ${money(r?.balance)}`,
    onSubmit: (v) => api('POST', path, { amount: centsFrom(v.amount), ...(v.description ? { description: v.description } : {}) }),
  });
}

const settingsFields = (a = {}) => [
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
const settingsBody = (v) => ({
  splitEnabled: v.splitEnabled,
  autoPayAfterSeconds: optionalInt(v.autoPayAfterSeconds),
  settleAfterSeconds: Number(v.settleAfterSeconds || 0),
});

function editSettings(a) {
  return openForm({
    title: `Settings of ${a.name}`,
    fields: settingsFields(a),
    submit: 'Save settings',
    done: `Settings of ${a.name} saved`,
    onSubmit: (v) => api('PATCH', `/_sandbox/accounts/${a.id}`, settingsBody(v)),
  });
}

function showCredentials(acc) {
  const secret = acc.client_secret ?? acc.clientSecret;
  fill(
    created,
    h('p', {}, h('strong', { text: `Account “${acc.name}” created.` }), ' Its secret is shown this once:'),
    h(
      'p',
      {},
      'client_id ',
      h('code', { text: clientIdOf(acc) }),
      ' ',
      copyButton(clientIdOf(acc), 'the client_id'),
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
        document.getElementById('account-new').focus(); // the button is gone: focus must not fall to <body>
      },
    }),
  );
  created.hidden = false;
}

document.getElementById('account-new').addEventListener('click', () =>
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
    done: (acc) => `Account ${acc?.name ?? ''} created`,
    onSubmit: async (v) => {
      const body = { name: v.name, ...settingsBody(v) };
      if (v.client_id) body.client_id = v.client_id;
      if (v.client_secret) body.client_secret = v.client_secret;
      const balance = parseReais(v.balance);
      if (Number.isNaN(balance)) throw new Error('the opening balance must be an amount in reais, such as 1.000,00');
      if (balance) body.balance = balance;
      const acc = await api('POST', '/_sandbox/accounts', body);
      showCredentials(acc);
      return acc;
    },
  }),
);

function accountRow(a) {
  const b = (text, fk, onclick) =>
    h('button', { type: 'button', class: 'small', dataset: { fk }, 'aria-label': `${text} ${a.name}`, text, onclick });
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, a.name, h('div', { class: 'mono small muted', text: a.id })),
    h('td', { class: 'mono small', text: clientIdOf(a) }),
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

function walletsOf(m) {
  if (Array.isArray(m.wallets) && m.wallets.length)
    return m.wallets.map((w) => ({ id: w.walletId ?? w.id ?? w.wallet_id, name: w.name ?? 'wallet', balance: w.balance }));
  const id = m.walletId ?? m.wallet_id;
  return id ? [{ id, name: 'main wallet', balance: m.balance }] : [];
}

function setStatus(m) {
  return openForm({
    title: `Status of ${m.name}`,
    intro: 'An inactive or suspended merchant cannot get tokens, and splits to its wallet are refused.',
    fields: [
      { name: 'status', label: 'Status', type: 'select', value: m.status, options: ['ACTIVE', 'INACTIVE', 'SUSPENDED'].map((s) => [s, s]) },
    ],
    submit: 'Set status',
    done: (r) => `${m.name} is now ${r?.status ?? 'updated'}`,
    onSubmit: (v) => api('PATCH', `/_sandbox/merchants/${m.id ?? m.merchantId}`, { status: v.status }),
  });
}

function merchantRow(m) {
  const wallets = walletsOf(m);
  return h(
    'tr',
    {},
    h('th', { scope: 'row' }, m.name, h('div', { class: 'mono small muted', text: m.id ?? m.merchantId })),
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
            h('span', { class: 'mono small muted', text: shortId(w.id) }),
            ' ',
            copyButton(w.id, `wallet id of ${m.name}`, `copy-${w.id}`),
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
          dataset: { fk: `credit-${w.id}` },
          'aria-label': `Credit wallet of ${m.name}`,
          text: 'Credit wallet',
          onclick: () => credit(`${m.name}'s wallet`, `/_sandbox/wallets/${w.id}/credit`),
        }),
      ),
    ),
  );
}

/** Accounts are read on every refresh (names and pickers everywhere need them). */
export async function refreshAccounts() {
  state.accounts = asList(await api('GET', '/_sandbox/accounts'));
  fillAccountPickers();
}

export async function refresh() {
  reconcile(accountRows, state.accounts, { key: (a) => a.id, render: accountRow });
  const accountId = merchantAccount.value;
  if (!accountId) return;
  const merchants = asList(await api('GET', `/_sandbox/merchants${query({ accountId })}`));
  if (accountId !== merchantAccount.value) return;
  reconcile(merchantRows, merchants, { key: (m) => m.id ?? m.merchantId, render: merchantRow });
  show(merchantEmpty, merchants.length === 0);
}

merchantAccount.addEventListener('change', () => refresh().catch(() => {}));
