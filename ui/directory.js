// The "Keys & rules" panel: the PIX key directory (the sandbox's DICT) and the outcome rules
// (magic values), each listed, added and removed through the control API.
import { api } from './api.js';
import { byId, formValues, h, listView } from './dom.js';
import { documentText, money, parseReais, typeLabel } from './format.js';
import { act } from './kit.js';
import { fillOptions } from './shared.js';
import { OUTCOME_ACTIONS, PIX_KEY_TYPES, TRANSACTION_TYPES } from './vocabulary.js';

/** @typedef {import('./server-types.js').PixKey} PixKey */
/** @typedef {import('./server-types.js').Rule} Rule */

const keyForm = /** @type {HTMLFormElement} */ (byId('key-form'));
const ruleForm = /** @type {HTMLFormElement} */ (byId('rule-form'));
fillOptions(/** @type {HTMLSelectElement} */ (keyForm.elements.namedItem('keyType')), PIX_KEY_TYPES);
fillOptions(/** @type {HTMLSelectElement} */ (ruleForm.elements.namedItem('type')), TRANSACTION_TYPES, (t) => `${typeLabel(t)} (${t})`);
fillOptions(/** @type {HTMLSelectElement} */ (ruleForm.elements.namedItem('action')), OUTCOME_ACTIONS);

/**
 * @param {string} what
 * @param {string} path
 */
const deleteButton = (what, path) =>
  h('button', {
    type: 'button',
    class: 'small danger',
    dataset: { fk: 'delete' },
    'aria-label': `Delete ${what}`,
    text: 'Delete',
    onclick: (/** @type {MouseEvent} */ e) => act(/** @type {Element} */ (e.currentTarget), `Deleted ${what}`, () => api('DELETE', path)),
  });

keyForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const v = formValues(keyForm);
  /** @type {Record<string, string>} */
  const owner = { name: v.name, document: v.document };
  if (v.ispb) owner.ispb = v.ispb;
  const r = await act(e.submitter, `Key ${v.key} added to the directory`, () =>
    api('POST', '/_sandbox/pix-keys', { key: v.key, keyType: v.keyType, owner, unknown: v.unknown }),
  );
  if (r) keyForm.reset();
});

/** @param {PixKey} k */
function keyRow(k) {
  const o = k.owner;
  return h(
    'tr',
    {},
    h('th', { scope: 'row', class: 'mono wrap', text: k.key }),
    h('td', { text: k.keyType }),
    h('td', { text: `${o.name}${o.ispb ? ` · ISPB ${o.ispb}` : ''}` }),
    h('td', { text: documentText(o.document) }),
    h('td', { text: k.unknown ? 'yes: KEY_NOT_FOUND' : 'no' }),
    h('td', { class: 'actions' }, deleteButton(`key ${k.key}`, `/_sandbox/pix-keys/${encodeURIComponent(k.key)}`)),
  );
}

/**
 * Reais typed in the form → integer cents (the API's unit); throws on unreadable input.
 * @param {string} text
 * @param {string} name
 */
function cents(text, name) {
  const c = parseReais(text);
  if (Number.isNaN(c)) throw new Error(`${name} must be an amount in reais, such as 10,50`);
  return c;
}

/** @param {Record<string, any>} v */
function ruleBody(v) {
  /** @type {Record<string, unknown>} */
  const match = { type: v.type };
  for (const [name, label] of /** @type {const} */ ([
    ['amount', 'Amount'],
    ['amountMin', 'From'],
    ['amountMax', 'To'],
  ])) {
    const c = cents(v[name], label);
    if (c !== null) match[name] = c;
  }
  for (const name of ['key', 'document', 'descriptionContains']) if (v[name]) match[name] = v[name];
  /** @type {Record<string, unknown>} */
  const outcome = { action: v.action };
  if (v.afterSeconds !== '') outcome.afterSeconds = Number(v.afterSeconds);
  if (v.code) outcome.code = v.code;
  if (v.message) outcome.message = v.message;
  /** @type {Record<string, unknown>} */
  const body = { match, outcome };
  if (v.description) body.description = v.description;
  return body;
}

ruleForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const r = await act(e.submitter, 'Outcome rule added', () => api('POST', '/_sandbox/rules', ruleBody(formValues(ruleForm))));
  if (r) ruleForm.reset();
});

/** @param {Rule['match']} m */
function when(m) {
  const parts = [m.type === 'CASH_IN' ? 'a charge' : 'a transfer'];
  if (m.amount !== undefined) parts.push(`of ${money(m.amount)}`);
  if (m.amountMin !== undefined || m.amountMax !== undefined)
    parts.push(`between ${money(m.amountMin ?? 0)} and ${m.amountMax !== undefined ? money(m.amountMax) : 'any amount'}`);
  if (m.key) parts.push(`to key ${m.key}`);
  if (m.document) parts.push(`with document ${documentText(m.document)}`);
  if (m.descriptionContains) parts.push(`whose description contains “${m.descriptionContains}”`);
  return parts.join(' ');
}

/** @param {Rule['outcome']} o */
function then(o) {
  const after = o.action === 'wait' ? '' : ` after ${o.afterSeconds ?? 0} s`;
  const error = o.code ? ` with ${o.code}${o.message ? `: ${o.message}` : ''}` : '';
  const payer = o.payer?.name ? ` (payer ${o.payer.name})` : '';
  return `${o.action}${after}${error}${payer}`;
}

/** @param {Rule} r */
function ruleRow(r) {
  return h(
    'tr',
    {},
    h(
      'th',
      { scope: 'row' },
      h('span', { class: 'mono', text: r.id }),
      r.description ? h('div', { class: 'small muted', text: r.description }) : null,
    ),
    h('td', { class: 'wrap', text: when(r.match) }),
    h('td', { class: 'wrap', text: then(r.outcome) }),
    h('td', { class: 'actions' }, deleteButton(`rule ${r.id}`, `/_sandbox/rules/${encodeURIComponent(r.id)}`)),
  );
}

const keys = listView(byId('key-rows'), byId('key-empty'), { key: (/** @type {PixKey} */ k) => k.key, render: keyRow });
const rules = listView(byId('rule-rows'), byId('rule-empty'), { key: (/** @type {Rule} */ r) => r.id, render: ruleRow });

const refreshKeys = async () => keys.render(await api('GET', '/_sandbox/pix-keys'));
const refreshRules = async () => rules.render(await api('GET', '/_sandbox/rules'));

/** @type {import('./app.js').View} */
export const directoryView = {
  topics: ['pix-keys', 'rules'],
  load: () => [refreshKeys, refreshRules],
  stale: ({ topics }) => [...(topics.includes('pix-keys') ? [refreshKeys] : []), ...(topics.includes('rules') ? [refreshRules] : [])],
};
