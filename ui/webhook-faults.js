// Webhook delivery faults in the Webhooks tab (docs/dashboard.md): the list of faults
// waiting to apply, each removable, and the form each delivery row carries to add one for the
// next events like it (same endpoint, same event type).
import { api, asList } from './api.js';
import { h, reconcile, show } from './dom.js';
import { shortId } from './format.js';
import { act } from './kit.js';
import { accountName, endpointUrl } from './shared.js';

const FAULT_ACTIONS = ['duplicate', 'reorder', 'delay', 'drop', 'bad-signature', 'stale-signature'];

const rows = document.getElementById('webhook-fault-rows');
const empty = document.getElementById('webhook-fault-empty');

function scopeText(f) {
  const parts = [f.eventType ?? 'every event'];
  parts.push(f.endpointId ? `to ${endpointUrl(f.endpointId)}` : `to ${accountName(f.accountId)}'s endpoints`);
  if (f.transactionId) parts.push(`of ${shortId(f.transactionId)}`);
  return parts.join(' ');
}

function faultRow(f) {
  return h(
    'tr',
    {},
    h('th', { scope: 'row', class: 'mono', text: f.action === 'delay' ? `delay ${f.seconds} s` : f.action }),
    h('td', { class: 'small wrap', text: scopeText(f) }),
    h('td', { text: `${f.remaining} of ${f.times}` }),
    h(
      'td',
      { class: 'actions' },
      h('button', {
        type: 'button',
        class: 'small danger',
        dataset: { fk: 'remove-fault' },
        'aria-label': `Remove the ${f.action} fault`,
        text: 'Remove',
        onclick: (e) => act(e.currentTarget, `The ${f.action} fault was removed`, () => api('DELETE', `/_sandbox/webhooks/faults/${f.id}`)),
      }),
    ),
  );
}

export async function refreshWebhookFaults() {
  const faults = asList(await api('GET', '/_sandbox/webhooks/faults'));
  reconcile(rows, faults, { key: (f) => `${f.id}:${f.remaining}`, render: faultRow });
  show(empty, faults.length === 0);
}

/** A delivery row's "Add fault": for the next events of its type to its endpoint. */
export function faultForm(d) {
  const what = `the next ${d.eventType} to ${d.url ?? endpointUrl(d.endpointId)}`;
  const action = h(
    'select',
    { name: 'action', 'aria-label': `Fault for ${what}` },
    FAULT_ACTIONS.map((a) => h('option', { value: a, text: a })),
  );
  const seconds = h('input', {
    name: 'seconds',
    type: 'number',
    min: '1',
    value: '30',
    class: 'narrow',
    'aria-label': 'Delay in seconds (delay only)',
  });
  const form = h(
    'form',
    {
      class: 'inline-fault',
      onsubmit: (e) => {
        e.preventDefault();
        const body = { endpointId: d.endpointId, eventType: d.eventType, action: action.value };
        if (action.value === 'delay') body.seconds = Number(seconds.value);
        act(e.submitter, `A ${action.value} fault waits for ${what}`, () => api('POST', '/_sandbox/webhooks/faults', body));
      },
    },
    action,
    ' ',
    seconds,
    ' ',
    h('button', { type: 'submit', class: 'small', dataset: { fk: 'add-fault' }, text: 'Add fault' }),
  );
  return h('details', { class: 'fault-picker', dataset: { fk: 'fault' } }, h('summary', { text: 'Fault…' }), form);
}
