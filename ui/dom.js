// DOM helpers. Data only ever reaches the page as text nodes or attribute values (never
// innerHTML), and lists are reconciled by key so that an update keeps focus, scroll position and
// open <details> wherever the data did not change.

/** @typedef {Node | string | number | null | undefined | false | readonly unknown[]} Child a node, text, nothing, or an array of them */
/** @typedef {Record<string, unknown>} Props */

/**
 * The element of `id`, of the type the caller names; a missing one is a bug of index.html, said at once.
 * @template {HTMLElement} [E=HTMLElement]
 * @param {string} id
 * @returns {E}
 */
export function byId(id) {
  const el = document.getElementById(id);
  if (!el) throw new Error(`index.html has no #${id}`);
  return /** @type {E} */ (el);
}

/**
 * h('button', {class: 'x', onclick: fn, 'aria-label': '…', dataset: {fk: 'pay'}}, 'Pay')
 * Children: strings (as text), nodes, arrays, null/false (skipped).
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props} [props]
 * @param {Child[]} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') el.className = String(value);
    else if (name === 'text') el.textContent = String(value);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    else if (name in el && !name.includes('-') && typeof value !== 'string') /** @type {any} */ (el)[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {readonly unknown[]} children
 */
function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replaces an element's children (used for small, non-interactive parts).
 * @param {Element} el
 * @param {Child[]} children
 */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/**
 * An element whose interactive descendants carry data-fk can have focus carried over.
 * @param {Element} root
 */
function focusKeyOf(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  const holder = /** @type {HTMLElement | null} */ (active.closest('[data-fk]'));
  return holder && root.contains(holder) ? (holder.dataset.fk ?? '') : '';
}

/**
 * @param {Element} root
 * @param {string | null} fk
 */
function restoreFocus(root, fk) {
  const target = /** @type {HTMLElement | null} */ (
    (fk && root.querySelector(`[data-fk="${CSS.escape(fk)}"]`)) || root.querySelector('button, a[href], input, select, textarea, summary')
  );
  if (target) target.focus({ preventScroll: true });
}

/**
 * What the person changed in a rebuilt item: open disclosures and chosen values.
 * @param {Element} from
 * @param {Element} to
 */
function carryState(from, to) {
  for (const d of from.querySelectorAll('details[open][data-fk]')) {
    const twin = to.querySelector(`details[data-fk="${CSS.escape(/** @type {HTMLElement} */ (d).dataset.fk ?? '')}"]`);
    if (twin) /** @type {HTMLDetailsElement} */ (twin).open = true;
  }
  for (const c of /** @type {NodeListOf<HTMLInputElement | HTMLSelectElement>} */ (
    from.querySelectorAll('select[data-fk], input[data-fk]')
  )) {
    const twin = /** @type {HTMLInputElement | null} */ (to.querySelector(`[data-fk="${CSS.escape(c.dataset.fk ?? '')}"]`));
    if (twin && twin.tagName === c.tagName) twin.value = c.value;
  }
}

/**
 * @template T
 * @typedef {object} ListOptions
 * @property {(item: T) => string} key
 * @property {(item: T) => HTMLElement} render
 * @property {(item: T) => unknown} [extra] what else the rendering of an item reads (a change rebuilds it)
 */

/**
 * Makes container's children match items, in order. A child whose signature (the item plus
 * `extra`) did not change is kept as is; a changed one is rebuilt, keeping focus and open details.
 * @template T
 * @param {HTMLElement} container
 * @param {readonly T[]} items
 * @param {ListOptions<T>} options
 */
export function reconcile(container, items, { key, render, extra = () => null }) {
  /** @type {Map<string | undefined, HTMLElement>} */
  const old = new Map();
  for (const child of /** @type {HTMLCollectionOf<HTMLElement>} */ (container.children)) old.set(child.dataset.key, child);
  /** @type {{ el: HTMLElement, fk: string } | null} */
  let focus = null;
  /** @type {HTMLElement[]} */
  const next = [];
  for (const item of items) {
    const k = String(key(item));
    const sig = JSON.stringify([item, extra(item)]);
    const prev = old.get(k);
    if (prev && prev.dataset.sig === sig) {
      old.delete(k);
      next.push(prev);
      continue;
    }
    const el = render(item);
    el.dataset.key = k;
    el.dataset.sig = sig;
    if (prev) {
      const fk = focusKeyOf(prev);
      if (fk !== null) focus = { el, fk };
      carryState(prev, el);
      // swapped in place: the container never empties, so its scroll position stays put
      prev.replaceWith(el);
      old.delete(k);
    }
    next.push(el);
  }
  // a removed item that held focus hands it to the container's neighbourhood, not to <body>
  let lostFocus = false;
  for (const stale of old.values()) {
    if (stale.contains(document.activeElement)) lostFocus = true;
    stale.remove();
  }
  next.forEach((el, i) => {
    if (container.children[i] !== el) container.insertBefore(el, container.children[i] ?? null);
  });
  if (focus) restoreFocus(focus.el, focus.fk);
  else if (lostFocus && next[0]) restoreFocus(next[0], null);
}

/** @type {Set<HTMLElement>} the "Loading…" rows of the lists whose first data has not arrived yet */
const loading = new Set();

/**
 * A table's list of rows: until its first data arrives, one row says it is loading (an empty
 * table would read as "no data"); then the rows, or `empty` when there are none.
 * @template T
 * @param {HTMLElement} tbody
 * @param {HTMLElement | null} empty
 * @param {ListOptions<T>} options
 */
export function listView(tbody, empty, options) {
  const table = tbody.closest('table');
  const columns = table?.tHead?.rows[0]?.cells.length ?? 1;
  const placeholder = h('tr', { class: 'placeholder' }, h('td', { colSpan: columns, class: 'muted', text: 'Loading…' }));
  tbody.replaceChildren(placeholder);
  table?.setAttribute('aria-busy', 'true');
  loading.add(placeholder);
  return {
    /** @param {readonly T[]} items */
    render(items) {
      if (loading.delete(placeholder)) {
        placeholder.remove();
        table?.removeAttribute('aria-busy');
      }
      reconcile(tbody, items, options);
      if (empty) empty.hidden = items.length > 0;
    },
  };
}

/**
 * What the lists still loading say when their data cannot come (no token, no sandbox).
 * @param {string} text
 */
export function loadingSays(text) {
  for (const row of loading) {
    const cell = row.firstElementChild;
    if (cell) cell.textContent = text;
  }
}

/**
 * The values of a form as an object of trimmed strings (checkboxes as booleans, or as the list of
 * the values ticked when they have values).
 * @param {HTMLFormElement} form
 * @returns {Record<string, any>}
 */
export function formValues(form) {
  /** @type {Record<string, any>} */
  const out = {};
  for (const el of /** @type {HTMLCollectionOf<HTMLInputElement>} */ (form.elements)) {
    if (!el.name || el.disabled) continue;
    if (el.type === 'checkbox') {
      if (el.value && el.value !== 'on') {
        out[el.name] ??= [];
        if (el.checked) out[el.name].push(el.value);
      } else out[el.name] = el.checked;
    } else out[el.name] = el.value.trim();
  }
  return out;
}
