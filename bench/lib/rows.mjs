// The rows of a section that measures against targets (store, snapshots): each a figure beside its
// baseline of the same run, their ratio, the target and whether it was met; printed as each comes,
// as a table at the end, and as the markdown lines of the section's block in bench/RESULTS.md.
import { fmt, table } from './harness.mjs';

export const ms = (x) => `${fmt(x, x < 10 ? 1 : 0)} ms`;

const ratioOf = (r) => (r.ratio === null ? '–' : `${fmt(r.ratio, 2)}×`);

/** A list of rows and `row(r)`, which adds one and prints it: {order, what, ours, p90?, baselineName, baseline, ratio, target, met}. */
export function targetRows() {
  const rows = [];
  const row = (r) => {
    rows.push(r);
    console.log(
      `  ${r.what}: ${r.ours} vs ${r.baselineName} ${r.baseline}${r.ratio === null ? '' : ` = ${fmt(r.ratio, 2)}×`} — target ${r.target}: ${r.met === null ? 'n/a' : r.met ? 'met' : 'NOT met'}`,
    );
  };
  return { rows, row };
}

/** The rows sorted by `order`, printed as one table. */
export function printRows(rows) {
  rows.sort((a, b) => a.order - b.order);
  console.log('');
  table([
    ['measure', 'pix-sandbox', 'baseline', 'figure', 'ratio', 'target', 'met'],
    ...rows.map((r) => [
      r.what,
      r.ours,
      r.baselineName,
      r.baseline,
      ratioOf(r),
      r.target,
      r.met === null ? 'n/a' : r.met ? 'met' : 'NOT met',
    ]),
  ]);
}

/** The rows as markdown table lines (a p90 column when `p90`), and the count of targets met. */
export function markdownRows(rows, { p90 = false } = {}) {
  const head = ['measure', 'pix-sandbox', ...(p90 ? ['p90 ms'] : []), 'baseline', 'baseline figure', 'ratio', 'target', 'met'];
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  for (const r of rows) {
    const p = p90 ? [r.p90 === undefined ? '–' : fmt(r.p90, r.p90 < 10 ? 1 : 0)] : [];
    lines.push(
      `| ${[r.what, r.ours, ...p, r.baselineName, r.baseline, ratioOf(r), r.target, r.met === null ? '–' : r.met ? 'met' : '**not met**'].join(' | ')} |`,
    );
  }
  const met = `Targets met: ${rows.filter((r) => r.met === true).length} of ${rows.filter((r) => r.met !== null).length}.`;
  return [...lines, '', met];
}
