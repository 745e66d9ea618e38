// The clock in the top bar: the selected tenant's clock, or the sandbox-wide one (read, advance,
// freeze, unfreeze). It is read when it changes (the change stream's "clock" and "accounts"), and
// between two reads it runs on in the page, so that an idle page shows the time without asking.
import { api, query } from './api.js';
import { byId, fill, h } from './dom.js';
import { dateTime } from './format.js';
import { act } from './kit.js';

/** @typedef {import('./server-types.js').ClockView} ClockView */

const clockNow = byId('clock-now');
const clockOffset = byId('clock-offset');
const clockForm = /** @type {HTMLFormElement} */ (byId('clock-form'));
const clockAccount = /** @type {HTMLSelectElement} */ (byId('clock-account'));
const clockFrozen = byId('clock-frozen');
const clockFreeze = /** @type {HTMLButtonElement} */ (byId('clock-freeze'));
/** the selected tenant: its clock; none ("All"): every tenant, and the sandbox-wide clock */
const target = () => (clockAccount.value ? { accountId: clockAccount.value } : {});
const whose = () =>
  clockAccount.value ? `${clockAccount.selectedOptions[0]?.textContent ?? 'the tenant'}'s clock` : "Every tenant's clock";

/**
 * "real time", or how far the sandbox clock is from it: "+2 min" (short: the top bar is narrow).
 * @param {ClockView} c
 * @returns {import('./dom.js').Child[]}
 */
function offsetText(c) {
  const s = Math.round(c.offsetSeconds);
  if (s === 0) return ['(real time)'];
  const abs = Math.abs(s);
  const text =
    abs >= 86400
      ? `${(abs / 86400).toFixed(1)} d`
      : abs >= 3600
        ? `${(abs / 3600).toFixed(1)} h`
        : abs >= 60
          ? `${Math.round(abs / 60)} min`
          : `${abs} s`;
  return [
    `(${s > 0 ? '+' : '−'}${text}`,
    h('span', { class: 'visually-hidden', text: s > 0 ? ' ahead of real time' : ' behind real time' }),
    ')',
  ];
}

/** What was read, and when (the page's own clock): the time shown is that plus the time since. */
/** @type {{ nowMs: number, readAt: number, frozen: boolean } | null} */
let last = null;

function tick() {
  if (!last) return;
  const ms = last.frozen ? last.nowMs : last.nowMs + (performance.now() - last.readAt);
  const text = `${dateTime(new Date(ms).toISOString())} UTC`;
  if (clockNow.textContent !== text) clockNow.textContent = text;
}
setInterval(tick, 1000); // only the text: the time comes from the last read

export async function refreshClock() {
  /** @type {ClockView} */
  const c = await api('GET', `/_sandbox/clock${query(target())}`);
  last = { nowMs: Date.parse(c.now), readAt: performance.now(), frozen: c.frozen };
  tick();
  clockFrozen.hidden = !c.frozen;
  clockFreeze.textContent = c.frozen ? 'Unfreeze' : 'Freeze';
  clockFreeze.hidden = !clockAccount.value; // "All": freezing every tenant at once is for the API
  const offset = offsetText(c);
  clockOffset.title = offset
    .map((p) => (typeof p === 'string' ? p : p instanceof Node ? p.textContent : ''))
    .join('')
    .replace(/[()]/g, '');
  fill(clockOffset, ...offset);
}

clockForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const seconds = Number(/** @type {HTMLInputElement} */ (clockForm.elements.namedItem('seconds')).value);
  act(e.submitter, `${whose()} advanced by ${seconds} s; everything due has run at its own instant`, async () => {
    await api('POST', '/_sandbox/clock/advance', { seconds, ...target() });
    await refreshClock();
  });
});

clockFreeze.addEventListener('click', () => {
  const freeze = clockFreeze.textContent === 'Freeze';
  act(clockFreeze, `${whose()} ${freeze ? 'frozen' : 'flows again'}`, async () => {
    await api('POST', `/_sandbox/clock/${freeze ? 'freeze' : 'unfreeze'}`, target());
    await refreshClock();
  });
});

clockAccount.addEventListener('change', () => void refreshClock().catch(() => undefined));
