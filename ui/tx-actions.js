// What can be done to a transaction from the page, with the buttons its state allows: pay, expire
// or cancel a waiting charge; complete or fail a processing transfer.
import { api } from './api.js';
import { h } from './dom.js';
import { money, shortId } from './format.js';
import { act, openForm } from './kit.js';
import { CHARGE_ACTIONS, TRANSFER_ACTIONS } from './vocabulary.js';

/** @typedef {import('./server-types.js').Transaction} Transaction */
/** @typedef {import('./kit.js').Field} Field */

/** @param {Transaction} t */
export const label = (t) => `${t.type === 'CASH_IN' ? 'charge' : 'transfer'} ${shortId(t.id)}`;

/** @type {Field[]} */
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

/** @param {Transaction} t */
function pay(t) {
  return openForm({
    title: `Pay ${label(t)}`,
    intro: `${money(t.amount)}. Payer fields are optional: the sandbox makes up the ones left empty.`,
    fields: payerFields,
    submit: 'Pay charge',
    done: `Charge ${shortId(t.id)} paid`,
    onSubmit: (v) => {
      const payer = Object.fromEntries(Object.entries(v).filter(([, x]) => x !== ''));
      return api('POST', `/_sandbox/charges/${t.id}/pay`, Object.keys(payer).length ? { payer } : {});
    },
  });
}

/** @param {Transaction} t */
function fail(t) {
  return openForm({
    title: `Fail ${label(t)}`,
    intro: `The ${money(t.amount)} return to the payer's balance; the lookup and the webhook carry this error.`,
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

/**
 * @param {Transaction} t
 * @param {string} verb
 * @param {'charges' | 'transfers'} path
 * @param {string} done
 */
const simple = (t, verb, path, done) => (/** @type {MouseEvent} */ e) =>
  act(/** @type {Element} */ (e.currentTarget), done, () => api('POST', `/_sandbox/${path}/${t.id}/${verb}`));

/** @typedef {{ text: string, run: (t: Transaction) => (e: MouseEvent) => unknown, tone?: string }} Button */

/** @type {Record<import('./vocabulary.js').ChargeAction, Button>} */
const CHARGE_BUTTONS = {
  pay: { text: 'Pay', run: (t) => () => pay(t), tone: 'primary' },
  expire: { text: 'Expire', run: (t) => simple(t, 'expire', 'charges', `Charge ${shortId(t.id)} expired`) },
  cancel: { text: 'Cancel', run: (t) => simple(t, 'cancel', 'charges', `Charge ${shortId(t.id)} cancelled`) },
};
/** @type {Record<import('./vocabulary.js').TransferAction, Button>} */
const TRANSFER_BUTTONS = {
  complete: { text: 'Complete', run: (t) => simple(t, 'complete', 'transfers', `Transfer ${shortId(t.id)} completed`), tone: 'primary' },
  fail: { text: 'Fail', run: (t) => () => fail(t), tone: 'danger' },
};

/**
 * The buttons the transaction's state allows: the control actions of a waiting charge or a processing
 * transfer (vocabulary.js), the transition tables deciding the rest.
 * @param {Transaction} t
 */
export function actions(t) {
  const b = (/** @type {string} */ fk, /** @type {Button} */ { text, run, tone }) =>
    h('button', {
      type: 'button',
      class: `small ${tone ?? ''}`.trim(),
      dataset: { fk },
      'aria-label': `${text} ${label(t)}`,
      text,
      onclick: run(t),
    });
  if (t.type === 'CASH_IN' && t.status === 'WAITING_PAYMENT') return CHARGE_ACTIONS.map((a) => b(a, CHARGE_BUTTONS[a]));
  if (t.type === 'CASH_OUT' && t.status === 'PROCESSING') return TRANSFER_ACTIONS.map((a) => b(a, TRANSFER_BUTTONS[a]));
  return [];
}
