// Named snapshots (docs/dashboard.md, docs/control-api.md#snapshots): the tenant picked in the top bar
// (or, with "All", the whole sandbox) saved under a name, and the snapshots listed with what they
// hold; each can be restored, exported as a fixtures document (downloaded), or deleted. The picker
// scopes the tab: a tenant's snapshots, or every snapshot with "All".
import { api, query } from './api.js';
import { byId, formValues, h, listView } from './dom.js';
import { dateTime } from './format.js';
import { act, confirmAction } from './kit.js';
import { accountName } from './shared.js';

/** @typedef {import('./server-types.js').Snapshot} Snapshot */

const picker = /** @type {HTMLSelectElement} */ (byId('clock-account'));
const form = /** @type {HTMLFormElement} */ (byId('snapshot-form'));
const scopeText = byId('snapshot-scope');
/** the tenant the tab shows and saves: the top bar's; null ("All"): the whole sandbox */
const tenant = () => picker.value || null;
/** @param {string | null} id */
const whose = (id) => (id === null ? 'the whole sandbox' : accountName(id));

/** @param {number} bytes */
const size = (bytes) => (bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);

/** @param {Record<string, number>} counts */
const holds = (counts) =>
  ['transactions', 'merchants', 'deliveries']
    .map((c) => `${counts[c] ?? 0} ${c}`)
    .concat(counts.accounts && counts.accounts > 1 ? [`${counts.accounts} accounts`] : [])
    .join(', ');

form.addEventListener('submit', async (e) => {
  e.preventDefault();
  const v = formValues(form);
  const accountId = tenant();
  const r = await act(e.submitter, `Saved ${whose(accountId)} as ${v.name}`, () =>
    api('POST', '/_sandbox/snapshots', { name: v.name, ...(accountId ? { accountId } : {}), ...(v.replace ? { replace: true } : {}) }),
  );
  if (r) form.reset();
});

/** Offers the snapshot's fixtures document as a file to download. */
async function download(/** @type {Snapshot} */ s) {
  const doc = await api('GET', `/_sandbox/snapshots/${encodeURIComponent(s.name)}/export`);
  const link = h('a', { href: URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' })) });
  link.setAttribute('download', `${s.name}.fixtures.json`);
  link.click();
  setTimeout(() => URL.revokeObjectURL(/** @type {HTMLAnchorElement} */ (link).href), 10_000);
}

/** @param {Snapshot} s */
function snapshotRow(s) {
  const path = `/_sandbox/snapshots/${encodeURIComponent(s.name)}`;
  /**
   * @param {string} text
   * @param {string} fk
   * @param {(e: MouseEvent) => unknown} onclick
   * @param {string} [cls]
   */
  const button = (text, fk, onclick, cls = 'small') =>
    h('button', { type: 'button', class: cls, dataset: { fk }, 'aria-label': `${text} snapshot ${s.name}`, text, onclick });
  return h(
    'tr',
    {},
    h('th', { scope: 'row', class: 'mono', text: s.name }),
    h('td', { text: whose(s.accountId) }),
    h('td', { class: 'mono small nowrap', text: dateTime(s.createdAt) }),
    h('td', { class: 'small', text: holds(s.counts) }),
    h('td', { class: 'num', text: size(s.bytes) }),
    h(
      'td',
      { class: 'actions' },
      button('Restore', 'restore', () =>
        confirmAction({
          title: `Restore ${s.name}`,
          intro: `${whose(s.accountId)} goes back to exactly what it held when this snapshot was taken; everything since is gone.`,
          submit: 'Restore',
          done: `${whose(s.accountId)} is back as it was at ${dateTime(s.createdAt)}`,
          onSubmit: () => api('POST', `${path}/restore`),
        }),
      ),
      button('Export', 'export', (e) =>
        act(/** @type {Element} */ (e.currentTarget), `Exported ${s.name} as a fixtures file`, () => download(s)),
      ),
      button(
        'Delete',
        'delete',
        (e) => act(/** @type {Element} */ (e.currentTarget), `Snapshot ${s.name} deleted`, () => api('DELETE', path)),
        'small danger',
      ),
    ),
  );
}

const snapshots = listView(byId('snapshot-rows'), byId('snapshot-empty'), {
  key: (/** @type {Snapshot} */ s) => s.name,
  render: snapshotRow,
});
async function refreshSnapshots() {
  const accountId = tenant();
  scopeText.textContent = accountId
    ? `${accountName(accountId)}'s snapshots; Save saves this tenant.`
    : 'Every snapshot; Save saves the whole sandbox.';
  snapshots.render(await api('GET', `/_sandbox/snapshots${query(accountId ? { accountId } : {})}`));
}

// the picker scopes the tab: another tenant is another list (and another stream)
picker.addEventListener('change', () => document.dispatchEvent(new Event('scope-change')));

/** @type {import('./app.js').View} */
export const snapshotsView = {
  topics: ['snapshots'],
  scope: tenant,
  load: () => [refreshSnapshots],
  stale: () => [refreshSnapshots],
};
