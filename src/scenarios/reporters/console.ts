// The readable view: one line per finished scenario as they complete, and for a failure the
// step, the request that failed, the answer, and expected versus actual for every difference.
import type { Writable } from 'node:stream';
import type { Mismatch } from '../matcher.js';
import { countOf, type RunResult, type ScenarioResult, type StepFailure } from '../result.js';

const MAX_BODY_CHARS = 2000;

export interface Painter {
  red(s: string): string;
  green(s: string): string;
  dim(s: string): string;
  bold(s: string): string;
}

function painter(stream: Writable): Painter {
  const on = (stream as { isTTY?: boolean }).isTTY === true && !process.env.NO_COLOR;
  const wrap = (a: number, b: number) => (s: string) => (on ? `\x1b[${a}m${s}\x1b[${b}m` : s);
  return { red: wrap(31, 39), green: wrap(32, 39), dim: wrap(2, 22), bold: wrap(1, 22) };
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : JSON.stringify(v));

function clip(s: string): string {
  return s.length > MAX_BODY_CHARS ? `${s.slice(0, MAX_BODY_CHARS)}… (${s.length - MAX_BODY_CHARS} more characters)` : s;
}

const indent = (s: string, pad: string) => s.split('\n').map((l) => pad + l).join('\n');

function mismatchLines(ms: Mismatch[], p: Painter): string[] {
  const lines = ['expected vs actual:'];
  for (const m of ms) {
    // "expected X, got Y" would only repeat the two lines below
    lines.push(`  ${p.bold(m.path || '/')}${m.message.startsWith('expected ') ? '' : `  ${p.dim(m.message)}`}`);
    lines.push(`    expected: ${p.green(show(m.expected))}`);
    lines.push(`    actual:   ${p.red(clip(show(m.actual)))}`);
  }
  return lines;
}

export function failureLines(f: StepFailure, p: Painter): string[] {
  const lines: string[] = [];
  if (f.exchange) {
    const { request: q, response: r } = f.exchange;
    lines.push(`request:  ${q.method} ${q.url}`);
    const hdrs = Object.entries(q.headers).filter(([k]) => k !== 'content-type');
    if (hdrs.length) lines.push(...hdrs.map(([k, v]) => `          ${k}: ${v}`));
    if (q.body !== undefined) lines.push(indent(clip(JSON.stringify(q.body, null, 2)), '          '));
    lines.push(`response: ${r.status}`);
    if (r.body !== undefined) lines.push(indent(clip(typeof r.body === 'string' ? r.body : JSON.stringify(r.body, null, 2)), '          '));
  }
  if (f.mismatches?.length) lines.push(...mismatchLines(f.mismatches, p));
  return lines;
}

function scenarioBlock(r: ScenarioResult, done: number, total: number, p: Painter): string {
  const secs = (r.durationMs / 1000).toFixed(2);
  const head = `[${done}/${total}] ${r.status === 'passed' ? p.green('✓') : p.red('✗')} ${r.name} ${p.dim(`(${r.file}, ${secs} s)`)}`;
  if (r.status === 'passed') return head;
  const out = [head];
  if (r.setupFailure) {
    out.push(indent(`${p.red('set-up failed')}: ${r.setupFailure.message}`, '    '));
    out.push(...failureLines(r.setupFailure, p).map((l) => indent(l, '      ')));
  }
  for (const s of r.steps) {
    if (s.status === 'failed' && s.failure) {
      out.push(indent(`${p.red(`step ${s.index + 1} "${s.name}" failed`)}: ${s.failure.message}`, '    '));
      out.push(...failureLines(s.failure, p).map((l) => indent(l, '      ')));
    }
  }
  const skipped = r.steps.filter((s) => s.status === 'skipped').length;
  if (skipped) out.push(p.dim(`    ${skipped} later step(s) skipped`));
  return out.join('\n');
}

export function consoleReporter(stream: Writable) {
  const p = painter(stream);
  return {
    start(total: number, baseUrl: string, concurrency: number) {
      stream.write(`running ${total} scenario(s) against ${baseUrl} (concurrency ${concurrency})\n`);
    },
    scenario(r: ScenarioResult, done: number, total: number) {
      stream.write(scenarioBlock(r, done, total, p) + '\n');
    },
    end(run: RunResult) {
      const c = countOf(run);
      const line = `${c.passed} passed, ${c.failed} failed, ${c.total} total in ${(run.durationMs / 1000).toFixed(2)} s`;
      stream.write(`\n${c.failed ? p.red(line) : p.green(line)}\n`);
    },
  };
}
