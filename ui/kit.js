// Shared pieces of interaction: the announcement region, running an action, copy buttons and
// the one form dialog (a native modal <dialog>: focus goes in, stays in, and comes back).
import { ApiError } from './api.js';
import { h, fill } from './dom.js';

const region = document.getElementById('announce');
let hideTimer = 0;

/** Says what happened, visibly and to screen readers (an aria-live region). */
export function announce(message, tone = 'ok') {
  clearTimeout(hideTimer);
  region.className = `toast tone-${tone} visible`;
  region.textContent = '';
  // emptied, then filled a moment later: assistive technology reads a repeated message again
  setTimeout(() => {
    region.textContent = message;
  }, 30);
  if (tone !== 'bad') hideTimer = setTimeout(() => region.classList.remove('visible'), 8000);
}

const describe = (e) => (e instanceof ApiError ? e.describe() : String(e?.message ?? e));

let afterAction = () => {};
/** What to do once an action changed something (the app refreshes at once). */
export const setAfterAction = (fn) => {
  afterAction = fn;
};

/** Runs an API action from a button: busy state, announcement (text, or made from the answer), refresh. */
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

/** A real button that copies `text` and says so. */
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

const dialog = document.getElementById('form-dialog');
const form = dialog.querySelector('form');
const titleEl = dialog.querySelector('#form-dialog-title');
const introEl = dialog.querySelector('[data-intro]');
const fieldsEl = dialog.querySelector('.fields');
const errorEl = dialog.querySelector('.form-error');
const submitEl = dialog.querySelector('button[type=submit]');
let current = null;

function field(f) {
  const id = `f-${f.name}`;
  const common = { id, name: f.name, required: f.required, 'aria-describedby': f.hint ? `${id}-hint` : undefined };
  let control;
  if (f.type === 'select') {
    control = h(
      'select',
      common,
      f.options.map(([value, label]) => h('option', { value, text: label })),
    );
    control.value = f.value ?? f.options[0]?.[0] ?? '';
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

function values() {
  const out = {};
  for (const el of form.elements) {
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
  const opener = document.activeElement;
  const key = opener?.closest('[data-key]')?.dataset.key;
  const fk = opener?.dataset?.fk;
  return () => {
    if (opener?.isConnected && !opener.closest('[hidden]')) return opener.focus();
    const row = key ? document.querySelector(`[data-key="${CSS.escape(key)}"]`) : null;
    const twin = row && fk ? row.querySelector(`[data-fk="${CSS.escape(fk)}"]`) : null;
    (twin ?? row?.querySelector('button') ?? document.getElementById('main')).focus();
  };
}

/**
 * Opens the dialog with `fields`; `onSubmit(values)` runs the action. An API error is shown in
 * the dialog, which stays open for a fix; success closes it, announces `done` and resolves.
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
      finish(result) {
        current = null;
        if (dialog.open) dialog.close();
        back();
        resolve(result);
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
    const first = fieldsEl.querySelector('input, select') ?? dialog.querySelector('[data-close]');
    first.focus();
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
dialog.querySelector('[data-close]').addEventListener('click', () => current?.finish(undefined));

/** A yes/no question in the same dialog (for clearing a whole collection). */
export const confirmAction = ({ title, intro, submit, onSubmit, done }) =>
  openForm({ title, intro, fields: [], submit, danger: true, onSubmit, done });
