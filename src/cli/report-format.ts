// The integration report (docs/report.md) as `pix-sandbox report` writes it: text for a person, JSON as
// answered, JUnit XML for a CI job's test view (one test case per check: fail → failure, warn → system-out,
// not-exercised → skipped), and one self-contained HTML page (no external asset; every text escaped).
import type { IntegrationReport } from '../client/control-client.js';

/** The formats `pix-sandbox report --format` writes (docs/cli.md#report): a CLI option's choices, like the scenario reporters'. */
export const REPORT_FORMATS = ['text', 'json', 'junit', 'html'] as const;
type ReportFormat = (typeof REPORT_FORMATS)[number];

type Check = IntegrationReport['checks'][number];

// XML 1.0 forbids most control characters even when escaped; HTML is escaped the same way
const escape = (s: string): string =>
  s
    // eslint-disable-next-line no-control-regex -- XML 1.0 cannot hold these characters
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');

const evidenceOf = (c: Check) => (c.evidence.length ? `evidence: ${c.evidence.join(', ')}` : 'evidence: none');
const lines = (c: Check) => [c.detail, c.advice, evidenceOf(c), `see ${c.docs}`].filter((l) => l !== '');

function text(r: IntegrationReport): string {
  const width = Math.max(...r.checks.map((c) => c.id.length));
  const out = [`Integration report of account ${r.accountId}: ${r.requests} requests, ${r.from} to ${r.to}`, ''];
  for (const c of r.checks) {
    out.push(`${c.outcome.toUpperCase().padEnd(13)} ${c.id.padEnd(width)}  ${c.title}`);
    if (c.outcome === 'fail' || c.outcome === 'warn') for (const l of lines(c)) out.push(`${' '.repeat(15 + width)} ${l}`);
  }
  const n = (o: string) => r.checks.filter((c) => c.outcome === o).length;
  out.push('', `${n('pass')} pass, ${n('fail')} fail, ${n('warn')} warn, ${n('not-exercised')} not exercised`, '');
  return out.join('\n');
}

function junit(r: IntegrationReport): string {
  const count = (o: string) => r.checks.filter((c) => c.outcome === o).length;
  const name = `pix-sandbox integration report ${r.accountId}`;
  const testcase = (c: Check) => {
    const open = `    <testcase classname="pix-sandbox.report" name="${escape(`${c.id}: ${c.title}`)}" time="0">`;
    const body = escape(lines(c).join('\n'));
    if (c.outcome === 'fail')
      return `${open}\n      <failure message="${escape(c.advice)}" type="${c.id}">${body}</failure>\n    </testcase>`;
    if (c.outcome === 'not-exercised') return `${open}\n      <skipped message="${escape(c.advice)}"/>\n    </testcase>`;
    if (c.outcome === 'warn') return `${open}\n      <system-out>${escape(`warn: ${lines(c).join('\n')}`)}</system-out>\n    </testcase>`;
    return `${open}</testcase>`;
  };
  const attrs = `tests="${r.checks.length}" failures="${count('fail')}" errors="0" skipped="${count('not-exercised')}" time="0"`;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="${escape(name)}" ${attrs}>`,
    `  <testsuite name="${escape(name)}" ${attrs} timestamp="${escape(r.to)}">`,
    ...r.checks.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

const COLOURS: Record<Check['outcome'], string> = { pass: '#1a7f37', fail: '#cf222e', warn: '#9a6700', 'not-exercised': '#6e7781' };

function html(r: IntegrationReport): string {
  const row = (c: Check) =>
    `<tr class="${c.outcome}"><td><span class="badge" style="background:${COLOURS[c.outcome]}">${escape(c.outcome)}</span></td>` +
    `<td><strong>${escape(c.id)}</strong><br>${escape(c.title)}</td>` +
    `<td>${escape(c.detail)}${c.detail ? '<br>' : ''}${escape(c.advice)}<br><small>${escape(evidenceOf(c))} · ${escape(c.docs)}</small></td></tr>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Integration report ${escape(r.accountId)}</title>
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:2rem;color:#1f2328}
table{border-collapse:collapse;width:100%}td{border-top:1px solid #d0d7de;padding:.6rem;vertical-align:top}
.badge{color:#fff;border-radius:1rem;padding:.15rem .6rem;font-size:.8rem;white-space:nowrap}
small{color:#57606a}
</style></head>
<body><h1>Integration report</h1>
<p>Account <code>${escape(r.accountId)}</code>: ${r.requests} requests from ${escape(r.from)} to ${escape(r.to)}.</p>
<table><tbody>
${r.checks.map(row).join('\n')}
</tbody></table></body></html>
`;
}

export function formatReport(r: IntegrationReport, format: ReportFormat): string {
  if (format === 'json') return `${JSON.stringify(r, null, 2)}\n`;
  if (format === 'junit') return junit(r);
  if (format === 'html') return html(r);
  return text(r);
}
