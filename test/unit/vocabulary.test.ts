// Every closed list of words is one const array of src/domain/vocabulary.ts. Two things hold it so:
// the docs' tables and lists of those words name exactly the words of the array, and src/ never
// writes a list of them out again (as an array, a union type or a message), so a new word is added
// in one place and the docs fail here until they name it.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KEY_TYPE_SPELLINGS } from '../../src/domain/pix-keys.js';
import * as V from '../../src/domain/vocabulary.js';
import { packagePath } from '../../src/paths.js';
import { lookupDataSchema } from '../../src/schemas/public-responses.js';
import { STEP_KINDS } from '../../src/schemas/scenario.js';
import { COLLECTIONS } from '../../src/store/model.js';

const doc = (name: string) => readFileSync(packagePath('docs', name), 'utf8');

/** The words in backticks of the first match of `re`'s group 1 (whitespace folded: a sentence may wrap). */
function backticked(text: string, re: RegExp): string[] {
  const m = text.replace(/\s+/g, ' ').match(re);
  expect(m, `no match for ${re}`).not.toBeNull();
  return [...m![1]!.matchAll(/`([^`]+)`/g)].map((w) => w[1]!);
}

/** The upper-case words of the first match of `re`'s group 1 (lists written without backticks). */
function capitals(text: string, re: RegExp): string[] {
  const m = text.replace(/\s+/g, ' ').match(re);
  expect(m, `no match for ${re}`).not.toBeNull();
  return [...m![1]!.matchAll(/\b[A-Z][A-Z_-]+\b/g)].map((w) => w[0]);
}

/** Column `col` of the table whose header row starts with `header`, one cell per row. */
function column(text: string, header: string, col: number): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`| ${header} |`));
  expect(start, `no table headed "${header}"`).toBeGreaterThanOrEqual(0);
  const rows: string[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(line.split(' | ')[col]!.replace(/^\| /, '').trim());
  }
  return rows;
}
const firstTicked = (cell: string) => /`([^`]+)`/.exec(cell)?.[1] ?? cell;

describe('the docs name each closed list as src/domain/vocabulary.ts has it', () => {
  const webhooks = doc('webhooks.md');
  const api = doc('api.md');
  const control = doc('control-api.md');
  const decisions = doc('decisions.md');

  it('event types: the table of webhooks.md, decision D33', () => {
    expect(column(webhooks, 'event', 0).map(firstTicked)).toEqual([...V.EVENT_TYPES]);
    expect(backticked(decisions, /One event per transaction status change, creation included: (.*?)\. An event/)).toEqual([
      ...V.EVENT_TYPES,
    ]);
  });

  it('transaction statuses: an event per status, the control API filter, the lookup table', () => {
    expect(column(webhooks, 'event', 2).map(firstTicked)).toEqual([...V.TRANSACTION_STATUSES]);
    expect(backticked(control, /`status` \(the transaction's own: (.*?)\)/)).toEqual([...V.TRANSACTION_STATUSES]);
    expect(column(api, 'transaction state', 0).map((c) => c.split(' ')[1])).toEqual([...V.TRANSACTION_STATUSES]);
    const lookupStatuses = lookupDataSchema.oneOf.map((s) => s.properties.status.const);
    expect(new Set(column(api, 'transaction state', 1).map(firstTicked))).toEqual(new Set(lookupStatuses));
  });

  it('charge statuses: the charge location, how a charge ends', () => {
    expect(capitals(api, /`status` is the charge's own state \((.*?)\)/)).toEqual([...V.CHARGE_STATUSES]);
    expect(column(api, 'from WAITING_PAYMENT to', 0)).toEqual(V.CHARGE_STATUSES.filter((s) => s !== 'WAITING_PAYMENT'));
  });

  it('transaction types: the control API filter and the rules table', () => {
    expect(backticked(control, /`type` \((.*?)\)/)).toEqual([...V.TRANSACTION_TYPES]);
    expect(backticked(control, /\| `match.type` \| required: (.*?) \|/)).toEqual([...V.TRANSACTION_TYPES]);
  });

  it('merchant statuses and document types', () => {
    expect(backticked(control, /`\{status\}`: (.*?); the merchant/)).toEqual([...V.MERCHANT_STATUSES]);
    expect(backticked(api, /`status` (`ACTIVE`, `INACTIVE` or `SUSPENDED`)/)).toEqual([...V.MERCHANT_STATUSES]);
    expect(backticked(api, /\| `document_type` \| required; (.*?), agreeing/)).toEqual([...V.DOCUMENT_TYPES]);
  });

  it('PIX key types, with their aliases: the cash-out fields, the key table, decision D24', () => {
    const aliases = Object.keys(KEY_TYPE_SPELLINGS).filter((k) => !(V.PIX_KEY_TYPES as readonly string[]).includes(k));
    expect(backticked(api, /\| `details.keyType` \| required; (.*?), any letter case/)).toEqual([...V.PIX_KEY_TYPES]);
    expect(backticked(api, /any letter case; (.*?) are aliases/)).toEqual(aliases);
    expect(column(api, 'kind', 0)).toEqual([...V.PIX_KEY_TYPES]);
    expect(capitals(decisions, /`keyType` is (.*?) in any letter case/)).toEqual([...V.PIX_KEY_TYPES]);
  });

  it('split modes: one paragraph each in Splits', () => {
    expect([...api.matchAll(/`([A-Z_]+)`: `amount` is/g)].map((m) => m[1])).toEqual([...V.SPLIT_MODES]);
  });

  it('ledger kinds: the table of movements', () => {
    const kinds = column(api, 'movement', 1).flatMap((c) => [...c.matchAll(/\(`([A-Z_]+)`\)/g)].map((m) => m[1]!));
    expect(new Set(kinds)).toEqual(new Set(V.LEDGER_KINDS));
  });

  it("outcome rules' actions, by type", () => {
    const [charge, transfer] = [/a charge: (.*?); a transfer/, /; a transfer: (.*?) \|/].map((re) => backticked(control, re));
    expect({ CASH_IN: charge, CASH_OUT: transfer }).toEqual(V.OUTCOME_ACTIONS_BY_TYPE);
  });

  it('delivery statuses, fault actions, send signatures and endpoint sources (webhooks.md, cli.md, scenarios.md)', () => {
    expect(backticked(webhooks, /`status` is (`PENDING` \(with `nextAttemptAt`\), `DELIVERED`, `DEAD`, or `DROPPED`)/)).toEqual([
      'PENDING',
      'nextAttemptAt',
      ...V.DELIVERY_STATUSES.slice(1),
    ]);
    expect(column(webhooks, '`action`', 0).map(firstTicked)).toEqual([...V.WEBHOOK_FAULT_ACTIONS]);
    expect(
      backticked(doc('cli.md'), /a \[delivery fault\]\(webhooks.md#delivery-faults\): (.*?); filters/).filter((w) => w !== '--seconds'),
    ).toEqual([...V.WEBHOOK_FAULT_ACTIONS]);
    expect(backticked(webhooks, /- `signature`: (.*?) \(correct/).filter((w) => w !== 'signature')).toEqual([...V.SEND_SIGNATURES]);
    expect(backticked(doc('cli.md'), /once, signed (`--signature .*?); prints/).map((w) => w.replace('--signature ', ''))).toEqual([
      ...V.SEND_SIGNATURES,
    ]);
    expect(backticked(doc('scenarios.md'), /`sendWebhook: \{body, signature\?\}` .*? signed (.*?); the answer/)).toEqual([
      ...V.SEND_SIGNATURES,
    ]);
    expect(backticked(webhooks, /- `source` is (.*?) for endpoints/)).toEqual([...V.ENDPOINT_SOURCES]);
  });

  it('the token endpoint’s error codes', () => {
    expect(
      new Set(
        column(api, 'status', 1)
          .filter((c) => /^`[a-z_]+`$/.test(c))
          .map(firstTicked),
      ),
    ).toEqual(new Set(V.OAUTH_ERROR_CODES));
  });
});

describe('src/ writes each closed list out once, in src/domain/vocabulary.ts', () => {
  const src = packagePath('src');
  const files = (readdirSync(src, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && f !== path.join('domain', 'vocabulary.ts'))
    .map((f) => ({ file: f, text: readFileSync(path.join(src, f), 'utf8') }));
  const lists = (Object.entries(V) as [string, unknown][]).filter(
    (e): e is [string, readonly string[]] => Array.isArray(e[1]) && e[1].length > 1 && e[1].every((w) => typeof w === 'string'),
  );
  /** Lists of their own in src/ that share words with the vocabulary's: a pair of their words is theirs. */
  const OWN_LISTS: Record<string, readonly string[]> = {
    // the scenario's step kinds: some are named after the action they take
    [path.join('schemas', 'scenario.ts')]: STEP_KINDS,
    // the store's collections: the change stream's topics are named after the lists, some of them collections
    [path.join('store', 'model.ts')]: COLLECTIONS,
  };
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

  it('reads every source file and every list', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(lists.map(([name]) => name)).toEqual(expect.arrayContaining(['EVENT_TYPES', 'MERCHANT_STATUSES', 'WEBHOOK_FAULT_ACTIONS']));
  });

  for (const [name, words] of lists) {
    it(`no other file lists two words of ${name} side by side (an array, a union, a message)`, () => {
      const word = `(${words.map(escape).join('|')})`;
      // 'A', 'B' · 'A' | 'B' · "must be A, B or C"
      const quoted = new RegExp(`(['"\`])${word}\\1\\s*[,|]\\s*(['"\`])${word}\\3`, 'g');
      const message = new RegExp(`must be (one of )?${word}(, | or )${word}`, 'g');
      const found = files.flatMap(({ file, text }) =>
        [...text.matchAll(quoted), ...text.matchAll(message)]
          .filter((m) => !(OWN_LISTS[file]?.includes(m[2] ?? '') && OWN_LISTS[file]?.includes(m[4] ?? '')))
          .map((m) => `${file}: ${m[0].replace(/\s+/g, ' ')}`),
      );
      expect(found).toEqual([]);
    });
  }
});
