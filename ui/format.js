// How values read on the page: amounts in reais (pt-BR), times in UTC like the API, and status
// badges that carry their meaning in text and shape as well as colour.
import { h } from './dom.js';

/** @typedef {import('./vocabulary.js').TransactionStatus | import('./vocabulary.js').DeliveryStatus | import('./vocabulary.js').MerchantStatus} Status */
/** @typedef {'ok' | 'bad' | 'warn' | 'info' | 'muted'} Tone */

const brl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/**
 * 123456 → "R$ 1.234,56"
 * @param {unknown} cents
 */
export const money = (cents) => (typeof cents === 'number' && Number.isFinite(cents) ? brl.format(cents / 100) : '—');

/**
 * "1.234,56", "1234,56", "1234.56", "-10" → cents; null when empty; NaN when unreadable.
 * With a comma the dots are thousands separators (pt-BR); without one a dot is the decimal point.
 * @param {unknown} text
 */
export function parseReais(text) {
  const s = String(text ?? '')
    .trim()
    .replace(/^R\$\s*/, '');
  if (s === '') return null;
  const normal = s.includes(',') ? s.replace(/\./g, '').replace(',', '.') : s;
  if (!/^-?\d+(\.\d{1,2})?$/.test(normal)) return Number.NaN;
  return Math.round(Number(normal) * 100);
}

/**
 * "2025-01-02T03:04:05.678Z" → "2025-01-02 03:04:05" (UTC, like every timestamp of the API)
 * @param {unknown} iso
 */
export function dateTime(iso) {
  if (typeof iso !== 'string') return '—';
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)/.exec(iso);
  return m ? `${m[1]} ${m[2]}` : iso;
}

/** @param {unknown} iso */
export const timeOnly = (iso) => dateTime(iso).slice(11) || '—';

/** @param {unknown} id */
export const shortId = (id) => (typeof id === 'string' ? id.slice(0, 8) : '—');

/** @type {Record<Status, Tone>} every status the sandbox speaks (a new one fails the dashboard's type-check until it has a tone) */
const TONES = {
  WAITING_PAYMENT: 'warn',
  PROCESSING: 'info',
  PENDING: 'info',
  PAID: 'ok',
  COMPLETED: 'ok',
  DELIVERED: 'ok',
  ACTIVE: 'ok',
  EXPIRED: 'muted',
  CANCELLED: 'muted',
  INACTIVE: 'muted',
  FAILED: 'bad',
  DEAD: 'bad',
  DROPPED: 'muted',
  SUSPENDED: 'bad',
};
/** @type {Record<Tone, string>} */
const MARKS = { ok: '✓', bad: '✕', warn: '◷', info: '↻', muted: '–' };

/**
 * A status badge: colour, a mark and the status itself as text.
 * @param {Status} status
 */
export function badge(status) {
  const tone = TONES[status] ?? 'muted';
  return h('span', { class: `badge tone-${tone}` }, h('span', { class: 'mark', 'aria-hidden': 'true', text: MARKS[tone] }), status);
}

/**
 * An HTTP status code as a badge (2xx ok, 4xx warn, 5xx bad, none = no answer).
 * @param {number | null | undefined} code
 */
export function httpBadge(code) {
  if (code === null || code === undefined)
    return h('span', { class: 'badge tone-bad' }, h('span', { class: 'mark', 'aria-hidden': 'true', text: '✕' }), 'no answer');
  const tone = code < 300 ? 'ok' : code < 500 ? 'warn' : 'bad';
  return h('span', { class: `badge tone-${tone}` }, h('span', { class: 'mark', 'aria-hidden': 'true', text: MARKS[tone] }), String(code));
}

/** @type {Record<import('./vocabulary.js').TransactionType, string>} */
const TYPE_LABELS = { CASH_IN: 'Charge', CASH_OUT: 'Transfer' };
/** @param {import('./vocabulary.js').TransactionType} type */
export const typeLabel = (type) => TYPE_LABELS[type];

/** @param {number | null | undefined} n */
export const seconds = (n) => (n === null || n === undefined ? 'never' : `${n} s`);

/**
 * Describes a document with its kind: "CPF 123.456.789-09".
 * @param {unknown} doc
 */
export function documentText(doc) {
  if (typeof doc !== 'string') return '—';
  if (/^\d{11}$/.test(doc)) return `CPF ${doc.slice(0, 3)}.${doc.slice(3, 6)}.${doc.slice(6, 9)}-${doc.slice(9)}`;
  if (/^\d{14}$/.test(doc)) return `CNPJ ${doc.slice(0, 2)}.${doc.slice(2, 5)}.${doc.slice(5, 8)}/${doc.slice(8, 12)}-${doc.slice(12)}`;
  return doc;
}

/**
 * A definition list from [label, value] pairs, skipping empty values.
 * @param {[string, import('./dom.js').Child][]} pairs
 */
export function facts(pairs) {
  const dl = h('dl', { class: 'facts' });
  for (const [label, value] of pairs) {
    if (value === undefined || value === null || value === '' || value === false) continue;
    dl.append(h('dt', { text: label }), h('dd', {}, value));
  }
  return dl;
}
