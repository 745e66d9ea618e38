// State and pieces that several panels show: accounts (for names and pickers), webhook
// endpoints (for delivery URLs), a delivery's attempts and its redeliver action.
import { api } from './api.js';
import { h } from './dom.js';
import { badge, dateTime, httpBadge, shortId } from './format.js';
import { act } from './kit.js';

/** @typedef {import('./server-types.js').Account} Account */
/** @typedef {import('./server-types.js').Delivery} Delivery */
/** @typedef {import('./server-types.js').Endpoint} Endpoint */

export const state = {
  /** @type {Account[]} */
  accounts: [],
  /** @type {Endpoint[]} */
  endpoints: [],
};

/**
 * What POST /_sandbox/webhooks/fire did, in words.
 * @param {{ event: { type: string }, deliveries: unknown[] }} r
 */
export function firedText(r) {
  const n = r.deliveries.length;
  const type = r.event.type;
  return n === 0
    ? `Event ${type} fired, but no endpoint of the account wants it: nothing was sent`
    : `Event ${type} fired: ${n} deliver${n === 1 ? 'y' : 'ies'} queued`;
}

/** @param {string} id */
export const accountName = (id) => state.accounts.find((a) => a.id === id)?.name ?? shortId(id);

/** The names of the accounts, for the rows that show them (a renamed account rebuilds them). */
export const accountNames = () => state.accounts.map((a) => a.name);

/** @param {string} id */
export const endpointUrl = (id) => state.endpoints.find((e) => e.id === id)?.url ?? `endpoint ${shortId(id)} (deleted)`;

/** Fills every <select data-accounts> with the accounts, keeping what each had selected. */
export function fillAccountPickers() {
  for (const select of /** @type {NodeListOf<HTMLSelectElement>} */ (document.querySelectorAll('select[data-accounts]'))) {
    const want = [...(select.dataset.accounts === 'all' ? [['', 'All']] : []), ...state.accounts.map((a) => [a.id, a.name])];
    const have = [...select.options].map((o) => [o.value, o.textContent]);
    if (JSON.stringify(want) === JSON.stringify(have)) continue;
    const chosen = select.value;
    select.replaceChildren(...want.map(([value, label]) => h('option', { value, text: label })));
    if (want.some(([v]) => v === chosen)) select.value = chosen;
  }
}

/**
 * Fills a <select> with the words of one of the sandbox's lists (vocabulary.js), after what it already holds.
 * @param {HTMLSelectElement} select
 * @param {readonly string[]} words
 * @param {(word: any) => string} [label]
 */
export function fillOptions(select, words, label = (w) => w) {
  select.append(...words.map((w) => h('option', { value: w, text: label(w) })));
}

/**
 * The attempts of a delivery, in a disclosure whose open state survives updates.
 * @param {Delivery} d
 */
export function attemptsDetails(d) {
  const attempts = d.attempts;
  const summary =
    attempts.length === 0
      ? d.status === 'DROPPED'
        ? 'dropped by a fault'
        : 'no attempt yet'
      : `${attempts.length} attempt${attempts.length > 1 ? 's' : ''}`;
  return h(
    'details',
    { class: 'attempts', dataset: { fk: 'attempts' } },
    h('summary', { text: summary }),
    attempts.length === 0
      ? h('p', { class: 'muted small', text: d.nextAttemptAt ? `first attempt due ${dateTime(d.nextAttemptAt)}` : 'no attempt' })
      : h(
          'ol',
          { class: 'attempt-list' },
          attempts.map((a) =>
            h(
              'li',
              {},
              h('span', { class: 'mono', text: dateTime(a.at) }),
              ' ',
              httpBadge(a.statusCode),
              ` ${a.durationMs} ms`,
              a.error ? h('span', { class: 'error-text', text: ` ${a.error}` }) : null,
              a.fault ? h('span', { class: 'muted small', text: ` (fault: ${a.fault.action})` }) : null,
            ),
          ),
        ),
    d.status === 'PENDING' && d.nextAttemptAt && attempts.length > 0
      ? h('p', { class: 'muted small', text: `next attempt ${dateTime(d.nextAttemptAt)}` })
      : null,
  );
}

/** @param {Delivery} d */
export function redeliverButton(d) {
  return h('button', {
    type: 'button',
    class: 'small',
    dataset: { fk: 'redeliver' },
    'aria-label': `Redeliver ${d.eventType} ${shortId(d.id)}`,
    text: 'Redeliver',
    onclick: (/** @type {MouseEvent} */ e) =>
      act(/** @type {Element} */ (e.currentTarget), `Delivery of ${d.eventType} queued again`, () =>
        api('POST', `/_sandbox/webhooks/deliveries/${d.id}/redeliver`),
      ),
  });
}

/**
 * One delivery as a compact block (used in a transaction's details).
 * @param {Delivery} d
 */
export function deliveryBlock(d) {
  return h(
    'li',
    { class: 'delivery' },
    h(
      'div',
      { class: 'delivery-head' },
      badge(d.status),
      h('span', { class: 'mono', text: d.eventType }),
      h('span', { class: 'muted small wrap', text: `→ ${d.url ?? endpointUrl(d.endpointId)}` }),
      redeliverButton(d),
    ),
    attemptsDetails(d),
  );
}
