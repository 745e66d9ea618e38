// Shared pieces of interaction: the announcement region, running an action, copy buttons and
// the one form dialog (a native modal <dialog>: focus goes in, stays in, and comes back).
import { ApiError } from './api.js';
import { byId, fill, h } from './dom.js';

const region = byId('announce');
let hideTimer = 0;

/**
 * Says what happened, visibly and to screen readers (an aria-live region).
 * @param {string} message
 * @param {'ok' | 'bad'} [tone]
 */
export function announce(message, tone = 'ok') {
  clearTimeout(hideTimer);
  region.className = `toast tone-${tone} visible`;
  region.textContent = '';
  // emptied, then filled a moment later: assistive technology reads a repeated message again
  setTimeout(() => {
    region.textContent = message;
  }, 30);
  if (tone !== 'bad') hideTimer = window.setTimeout(() => region.classList.remove('visible'), 8000);
}

/** @param {unknown} e */
const describe = (e) => (e instanceof ApiError ? e.describe() : e instanceof Error ? e.message : String(e));

let afterAction = () => {};
/**
 * What to do once an action changed something (the app reads again what the change stream will not tell).
 * @param {() => void} fn
 */
export const setAfterAction = (fn) => {
  afterAction = fn;
};

/**
 * Runs an API action from a button: busy state, announcement (text, or made from the answer), refresh.
 * @template T
 * @param {Element | null | undefined} button
 * @param {string | ((result: T) => string)} label
 * @param {() => Promise<T>} fn
 * @returns {Promise<T | undefined>}
 */
export async function act(button, label, fn) {
  if (button) button.setAttribute('aria-busy', 'true');
  try {
    const result = await fn();
    announce(typeof label === 'function' ? label(result) : label);
    afterAction();
    return result;
  } catch (e) {
    announce(`Failed: ${describe(e)}`, 'bad');
    return undefined;
  } finally {
    if (button) button.removeAttribute('aria-busy');
  }
}

/** @param {string} text */
async function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  // plain http on another host is not a secure context: fall back to the selection
  const area = h('textarea', { class: 'visually-hidden', readonly: true });
  area.value = text;
  document.body.append(area);
  area.select();
  const ok = document.execCommand('copy');
  area.remove();
  if (!ok) throw new Error('the browser refused to copy');
}

/**
 * A real button that copies `text` and says so.
 * @param {string} text
 * @param {string} what
 * @param {string} [fk]
 */
export function copyButton(text, what, fk = `copy-${what}`) {
  return h('button', {
    type: 'button',
    class: 'small',
    dataset: { fk },
    'aria-label': `Copy ${what}`,
    onclick: async () => {
      try {
        await copyText(text);
        announce(`Copied ${what} to the clipboard`);
      } catch (e) {
        announce(`Could not copy: ${describe(e)}`, 'bad');
      }
    },
    text: 'Copy',
  });
}

// ---- the form dialog --------------------------------------------------------------------

/**
 * @typedef {object} Field
 * @property {string} name
 * @property {string} label
 * @property {'text' | 'number' | 'checkbox' | 'select'} [type]
 * @property {unknown} [value]
 * @property {boolean} [required]
 * @property {string} [hint]
 * @property {string} [pattern]
 * @property {string} [title]
 * @property {string} [placeholder]
 * @property {string} [inputmode]
 * @property {string} [min]
 * @property {string} [max]
 * @property {string} [step]
 * @property {readonly (readonly [string, string])[]} [options] a select's [value, label] pairs
 */

const dialog = /** @type {HTMLDialogElement} */ (byId('form-dialog'));
const form = /** @type {HTMLFormElement} */ (dialog.querySelector('form'));
const titleEl = byId('form-dialog-title');
const introEl = byId('form-dialog-intro');
const fieldsEl = /** @type {HTMLElement} */ (dialog.querySelector('.fields'));
const errorEl = /** @type {HTMLElement} */ (dialog.querySelector('.form-error'));
const submitEl = /** @type {HTMLButtonElement} */ (dialog.querySelector('button[type=submit]'));
/** @type {{ finish(result: unknown): void, busy: boolean, submit(): Promise<void> } | null} */
let current = null;

/** @param {Field} f */
function field(f) {
  const id = `f-${f.name}`;
  const common = { id, name: f.name, required: f.required, 'aria-describedby': f.hint ? `${id}-hint` : undefined };
  let control;
  if (f.type === 'select') {
    control = h(
      'select',
      common,
      (f.options ?? []).map(([value, label]) => h('option', { value, text: label })),
    );
    control.value = String(f.value ?? f.options?.[0]?.[0] ?? '');
  } else if (f.type === 'checkbox') {
    control = h('input', { ...common, type: 'checkbox', checked: !!f.value });
    return h(
      'div',
      { class: 'field-check' },
      h('label', {}, control, ` ${f.label}`),
      f.hint && h('span', { id: `${id}-hint`, class: 'hint', text: f.hint }),
    );
  } else {
    control = h('input', {
      ...common,
      type: f.type ?? 'text',
      pattern: f.pattern,
      title: f.title,
      placeholder: f.placeholder,
      inputmode: f.inputmode,
      min: f.min,
      max: f.max,
      step: f.step,
      autocomplete: 'off',
      spellcheck: 'false',
    });
    if (f.value !== undefined && f.value !== null) control.value = String(f.value);
  }
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id, text: f.label }),
    control,
    f.hint && h('span', { id: `${id}-hint`, class: 'hint', text: f.hint }),
  );
}

/** @returns {Record<string, any>} */
function values() {
  /** @type {Record<string, any>} */
  const out = {};
  for (const el of /** @type {HTMLCollectionOf<HTMLInputElement>} */ (form.elements)) {
    if (!el.name) continue;
    out[el.name] = el.type === 'checkbox' ? el.checked : el.value.trim();
  }
  return out;
}

/**
 * Where focus goes back to: the opener; or, when a refresh rebuilt its row, the opener's twin;
 * or, when the action removed that button (a failed transfer has no Fail button), its row's first.
 */
function returnPoint() {
  const opener = /** @type {HTMLElement | null} */ (document.activeElement);
  const key = /** @type {HTMLElement | null | undefined} */ (opener?.closest('[data-key]'))?.dataset.key;
  const fk = opener?.dataset?.fk;
  return () => {
    if (opener?.isConnected && !opener.closest('[hidden]')) return opener.focus();
    const row = key ? document.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
    const twin = row && fk ? row.querySelector(`[data-fk="${CSS.escape(fk)}"]`) : null;
    /** @type {HTMLElement} */ (twin ?? row?.querySelector('button') ?? byId('main')).focus();
  };
}

/**
 * Opens the dialog with `fields`; `onSubmit(values)` runs the action. An API error is shown in
 * the dialog, which stays open for a fix; success closes it, announces `done` and resolves.
 */
/**
 * @template T
 * @param {object} form
 * @param {string} form.title
 * @param {string} [form.intro]
 * @param {Field[]} form.fields
 * @param {string} [form.submit]
 * @param {boolean} [form.danger]
 * @param {(values: Record<string, any>) => Promise<T>} form.onSubmit
 * @param {string | ((result: T) => string)} [form.done]
 * @returns {Promise<T | undefined>}
 */
export function openForm({ title, intro, fields, submit = 'Save', danger = false, onSubmit, done }) {
  if (current) current.finish(undefined);
  const back = returnPoint();
  fill(titleEl, title);
  introEl.textContent = intro ?? '';
  introEl.hidden = !intro;
  if (intro) dialog.setAttribute('aria-describedby', introEl.id);
  else dialog.removeAttribute('aria-describedby');
  fill(fieldsEl, fields.map(field));
  errorEl.hidden = true;
  submitEl.textContent = submit;
  submitEl.classList.toggle('danger', danger);
  return new Promise((resolve) => {
    current = {
      finish(/** @type {unknown} */ result) {
        current = null;
        if (dialog.open) dialog.close();
        back();
        resolve(/** @type {T | undefined} */ (result));
      },
      busy: false,
      async submit() {
        // not `disabled`: a disabled button would drop keyboard focus to <body>
        if (this.busy) return;
        this.busy = true;
        submitEl.setAttribute('aria-busy', 'true');
        try {
          const result = await onSubmit(values());
          announce(typeof done === 'function' ? done(result) : (done ?? `${submit}: done`));
          afterAction();
          this.finish(result);
        } catch (e) {
          errorEl.textContent = describe(e);
          errorEl.hidden = false;
        } finally {
          this.busy = false;
          submitEl.removeAttribute('aria-busy');
        }
      },
    };
    dialog.showModal();
    // a question without fields starts on Cancel: Enter must not clear a collection by accident
    const first = /** @type {HTMLElement | null} */ (fieldsEl.querySelector('input, select') ?? dialog.querySelector('[data-close]'));
    first?.focus();
  });
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  current?.submit();
});
dialog.addEventListener('cancel', (e) => {
  e.preventDefault();
  current?.finish(undefined);
});
dialog.querySelector('[data-close]')?.addEventListener('click', () => current?.finish(undefined));

/**
 * A yes/no question in the same dialog (for clearing a whole collection).
 * @param {{ title: string, intro: string, submit: string, onSubmit: () => Promise<unknown>, done: string }} question
 */
export const confirmAction = ({ title, intro, submit, onSubmit, done }) =>
  openForm({ title, intro, fields: [], submit, danger: true, onSubmit, done });
