// The "Keys & rules" panel: the PIX key directory (the sandbox's DICT) and the outcome rules
// (magic values), each listed, added and removed through the control API.
import { api, asList } from './api.js';
import { formValues, h, reconcile, show } from './dom.js';
import { documentText, money, parseReais } from './format.js';
import { act } from './kit.js';

const keyRows = document.getElementById('key-rows');
const keyEmpty = document.getElementById('key-empty');
const ruleRows = document.getElementById('rule-rows');
const ruleEmpty = document.getElementById('rule-empty');
const keyForm = document.getElementById('key-form');
const ruleForm = document.getElementById('rule-form');

const deleteButton = (what, path, fk = 'delete') =>
  h('button', {
    type: 'button',
    class: 'small danger',
    dataset: { fk },
    'aria-label': `Delete ${what}`,
    text: 'Delete',
    onclick: (e) => act(e.currentTarget, `Deleted ${what}`, () => api('DELETE', path)),
  });

keyForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const v = formValues(keyForm);
  const owner = { name: v.name, document: v.document };
  if (v.ispb) owner.ispb = v.ispb;
  const r = await act(e.submitter, `Key ${v.key} added to the directory`, () =>
    api('POST', '/_sandbox/pix-keys', { key: v.key, keyType: v.keyType, owner, unknown: v.unknown }),
  );
  if (r) keyForm.reset();
});

function keyRow(k) {
  const o = k.owner ?? {};
  return h(
    'tr',
    {},
    h('th', { scope: 'row', class: 'mono wrap', text: k.key }),
    h('td', { text: k.keyType }),
    h('td', { text: `${o.name ?? '—'}${o.ispb ? ` · ISPB ${o.ispb}` : ''}` }),
    h('td', { text: documentText(o.document) }),
    h('td', { text: k.unknown ? 'yes: KEY_NOT_FOUND' : 'no' }),
    h('td', { class: 'actions' }, deleteButton(`key ${k.key}`, `/_sandbox/pix-keys/${encodeURIComponent(k.key)}`)),
  );
}

/** Reais typed in the form → integer cents (the API's unit); throws on unreadable input. */
function cents(text, name) {
  const c = parseReais(text);
  if (Number.isNaN(c)) throw new Error(`${name} must be an amount in reais, such as 10,50`);
  return c;
}

function ruleBody(v) {
  const match = { type: v.type };
  for (const [name, label] of [
    ['amount', 'Amount'],
    ['amountMin', 'From'],
    ['amountMax', 'To'],
  ]) {
    const c = cents(v[name], label);
    if (c !== null) match[name] = c;
  }
  for (const name of ['key', 'document', 'descriptionContains']) if (v[name]) match[name] = v[name];
  const outcome = { action: v.action };
  if (v.afterSeconds !== '') outcome.afterSeconds = Number(v.afterSeconds);
  if (v.code) outcome.code = v.code;
  if (v.message) outcome.message = v.message;
  const body = { match, outcome };
  if (v.description) body.description = v.description;
  return body;
}

ruleForm.addEventListener('submit', async (e) => {
  e.preventDefault();
  const r = await act(e.submitter, 'Outcome rule added', () => api('POST', '/_sandbox/rules', ruleBody(formValues(ruleForm))));
  if (r) ruleForm.reset();
});

function when(m = {}) {
  const parts = [m.type === 'CASH_IN' ? 'a charge' : 'a transfer'];
  if (m.amount !== undefined) parts.push(`of ${money(m.amount)}`);
  if (m.amountMin !== undefined || m.amountMax !== undefined)
    parts.push(`between ${money(m.amountMin ?? 0)} and ${m.amountMax !== undefined ? money(m.amountMax) : 'any amount'}`);
  if (m.key) parts.push(`to key ${m.key}`);
  if (m.document) parts.push(`with document ${documentText(m.document)}`);
  if (m.descriptionContains) parts.push(`whose description contains “${m.descriptionContains}”`);
  return parts.join(' ');
}

function then(o = {}) {
  const after = o.action === 'wait' ? '' : ` after ${o.afterSeconds ?? 0} s`;
  const error = o.code ? ` with ${o.code}${o.message ? `: ${o.message}` : ''}` : '';
  const payer = o.payer?.name ? ` (payer ${o.payer.name})` : '';
  return `${o.action}${after}${error}${payer}`;
}

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

export async function refresh() {
  const [keys, rules] = await Promise.all([api('GET', '/_sandbox/pix-keys').then(asList), api('GET', '/_sandbox/rules').then(asList)]);
  reconcile(keyRows, keys, { key: (k) => k.key, render: keyRow });
  show(keyEmpty, keys.length === 0);
  reconcile(ruleRows, rules, { key: (r) => r.id, render: ruleRow });
  show(ruleEmpty, rules.length === 0);
}
