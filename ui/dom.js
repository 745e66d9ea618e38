// DOM helpers. Data only ever reaches the page as text nodes or attribute values (never
// innerHTML), and lists are reconciled by key so that a refresh every 2 s keeps focus,
// scroll position and open <details> wherever the data did not change.

/**
 * h('button', {class: 'x', onclick: fn, 'aria-label': '…', dataset: {fk: 'pay'}}, 'Pay')
 * Children: strings (as text), nodes, arrays, null/false (skipped).
 */
export function h(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(props ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') el.className = value;
    else if (name === 'text') el.textContent = String(value);
    else if (name === 'dataset') Object.assign(el.dataset, value);
    else if (name.startsWith('on') && typeof value === 'function') el.addEventListener(name.slice(2), value);
    else if (name in el && !name.includes('-') && typeof value !== 'string') el[name] = value;
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** Replaces an element's children (used for small, non-interactive parts). */
export function fill(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** An element whose interactive descendants carry data-fk can have focus carried over. */
function focusKeyOf(root) {
  const active = document.activeElement;
  if (!active || !root.contains(active)) return null;
  const holder = active.closest('[data-fk]');
  return holder && root.contains(holder) ? holder.dataset.fk : '';
}

function restoreFocus(root, fk) {
  const target =
    (fk && root.querySelector(`[data-fk="${CSS.escape(fk)}"]`)) || root.querySelector('button, a[href], input, select, textarea, summary');
  if (target) target.focus({ preventScroll: true });
}

/** What the person changed in a rebuilt item: open disclosures and chosen values. */
function carryState(from, to) {
  for (const d of from.querySelectorAll('details[open][data-fk]')) {
    const twin = to.querySelector(`details[data-fk="${CSS.escape(d.dataset.fk)}"]`);
    if (twin) twin.open = true;
  }
  for (const c of from.querySelectorAll('select[data-fk], input[data-fk]')) {
    const twin = to.querySelector(`[data-fk="${CSS.escape(c.dataset.fk)}"]`);
    if (twin && twin.tagName === c.tagName) twin.value = c.value;
  }
}

/**
 * Makes container's children match items, in order. A child whose signature (the item plus
 * `extra`) did not change is kept as is; a changed one is rebuilt, keeping focus and open details.
 */
export function reconcile(container, items, { key, render, extra = () => null }) {
  const old = new Map();
  for (const child of container.children) old.set(child.dataset.key, child);
  let focus = null;
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
  else if (lostFocus && next.length) restoreFocus(next[0], null);
}

/** Shows `el` only when `on`. */
export const show = (el, on) => {
  el.hidden = !on;
};

/** The values of a form as an object of trimmed strings (checkboxes as booleans). */
export function formValues(form) {
  const out = {};
  for (const el of form.elements) {
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
