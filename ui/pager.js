// Paging through a control list that is newest first (docs/store.md): "Older" follows the cursor
// the sandbox gave with the page (x-sandbox-next-cursor), "Newer" goes back one page, "Newest"
// to the start. The page shown stays the same across refreshes: a cursor is a creation sequence
// number, so new records never push the rows of an older page around.
import { h } from './dom.js';

/**
 * @param {HTMLElement} container
 * @param {() => void} onChange
 */
export function pager(container, onChange) {
  /** @type {(string | undefined)[]} the `after` of each page visited; the last is the one shown */
  const cursors = [undefined];
  /** @type {string | null} */
  let next = null;
  const newest = h('button', { type: 'button', class: 'small', text: 'Newest', onclick: () => go(() => cursors.splice(1)) });
  const newer = h('button', { type: 'button', class: 'small', text: '← Newer', onclick: () => go(() => cursors.pop()) });
  const older = h('button', {
    type: 'button',
    class: 'small',
    text: 'Older →',
    onclick: () => go(() => next !== null && cursors.push(next)),
  });
  container.replaceChildren(newest, newer, older);
  const render = () => {
    newest.disabled = newer.disabled = cursors.length === 1;
    older.disabled = next === null;
    container.hidden = cursors.length === 1 && next === null;
  };
  const go = (/** @type {() => unknown} */ move) => {
    move();
    render();
    onChange();
  };
  render();
  return {
    /** the `after` of the page to show (undefined: the newest) */
    get after() {
      return cursors.at(-1);
    },
    /** the page number shown, from 1 */
    get page() {
      return cursors.length;
    },
    /**
     * what the last answer said about the next page
     * @param {string | null} cursor
     */
    setNext(cursor) {
      next = cursor;
      render();
    },
    /** back to the newest page (the filters changed) */
    reset() {
      cursors.splice(1);
      next = null;
      render();
    },
  };
}
