// JUnit XML, as CI servers read it: one testcase per scenario; a failure carries the failed step,
// the request, and expected versus actual; the step log goes to system-out.
import { countOf, type RunResult, type ScenarioResult } from '../result.js';
import { failureLines, type Painter } from './console.js';

const plain: Painter = { red: (s) => s, green: (s) => s, dim: (s) => s, bold: (s) => s };

// XML 1.0 forbids most control characters even when escaped
const xml = (s: string): string =>
  s
    // eslint-disable-next-line no-control-regex -- XML 1.0 cannot hold these characters
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');

function failureOf(r: ScenarioResult): { message: string; text: string } | null {
  if (r.setupFailure) return { message: `set-up failed: ${r.setupFailure.message}`, text: failureLines(r.setupFailure, plain).join('\n') };
  const s = r.steps.find((x) => x.status === 'failed');
  if (!s?.failure) return null;
  return {
    message: `step ${s.index + 1} "${s.name}": ${s.failure.message}`,
    text: [`step ${s.index + 1} "${s.name}" failed: ${s.failure.message}`, ...failureLines(s.failure, plain)].join('\n'),
  };
}

function testcase(r: ScenarioResult): string {
  const attrs = `classname="${xml(r.file)}" name="${xml(r.name)}" time="${(r.durationMs / 1000).toFixed(3)}"`;
  const log = r.steps.map((s) => `${s.status.padEnd(7)} ${s.index + 1}. ${s.name}${s.summary ? `  [${s.summary}]` : ''}`).join('\n');
  const f = failureOf(r);
  const failure = f ? `\n      <failure message="${xml(f.message)}" type="ScenarioFailure">${xml(f.text)}</failure>` : '';
  const account = r.accountId ? `account ${r.accountId}\n` : '';
  return `    <testcase ${attrs}>${failure}\n      <system-out>${xml(account + log)}</system-out>\n    </testcase>`;
}

export function junitReport(run: RunResult): string {
  const c = countOf(run);
  const time = (run.durationMs / 1000).toFixed(3);
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="pix-sandbox scenarios" tests="${c.total}" failures="${c.failed}" errors="0" time="${time}">`,
    `  <testsuite name="pix-sandbox scenarios" tests="${c.total}" failures="${c.failed}" errors="0" skipped="0" time="${time}" timestamp="${run.startedAt}">`,
    `    <properties><property name="baseUrl" value="${xml(run.baseUrl)}"/></properties>`,
    ...run.scenarios.map(testcase),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
