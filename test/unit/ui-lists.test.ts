// The dashboard's lists are the server's: it reads them from GET /_sandbox/ui/vocabulary.js, a module
// the sandbox makes from src/domain/vocabulary.ts. The served module must be exactly those constants,
// and no file of ui/ may write out a list of its own (an array, or <option>s, of the same words).
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as vocabulary from '../../src/domain/vocabulary.js';
import { packagePath } from '../../src/paths.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

const LISTS = Object.entries(vocabulary as Record<string, unknown>).filter((e): e is [string, readonly string[]] => Array.isArray(e[1]));
const uiFiles = readdirSync(packagePath('ui')).filter((f) => /\.(js|html)$/.test(f));
const read = (file: string) => readFileSync(packagePath('ui', file), 'utf8');

describe('the dashboard’s lists', () => {
  let sb: TestSandbox;
  let served: Record<string, unknown>;

  beforeAll(async () => {
    sb = await startTestSandbox();
    const r = await sb.request('GET', '/_sandbox/ui/vocabulary.js');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    served = (await import(`data:text/javascript;base64,${Buffer.from(r.text).toString('base64')}`)) as Record<string, unknown>;
  });
  afterAll(() => sb?.stop());

  it('the served vocabulary.js exports every constant of src/domain/vocabulary.ts, equal and frozen', () => {
    expect(LISTS.length).toBeGreaterThanOrEqual(10);
    const data = Object.entries(vocabulary).filter(([, v]) => typeof v !== 'function'); // a helper function is not vocabulary
    expect(Object.keys(served).sort()).toEqual(data.map(([name]) => name).sort());
    for (const [name, value] of data) {
      expect(served[name], name).toEqual(value);
      expect(Object.isFrozen(served[name]), name).toBe(true);
    }
  });

  it('the page imports it, and no file of ui/ writes out a list of the server’s words', () => {
    expect(uiFiles).toContain('index.html');
    expect(uiFiles.filter((f) => read(f).includes("from './vocabulary.js'")).length).toBeGreaterThanOrEqual(4);
    const copies: string[] = [];
    for (const file of uiFiles) {
      const text = read(file);
      const arrays = [...text.matchAll(/\[([^[\]]*)\]/g)].map((m) => [...m[1]!.matchAll(/'([^']*)'/g)].map((x) => x[1]!));
      const options = [...text.matchAll(/<option(?: value="([^"]*)")?>([^<]*)<\/option>/g)].map((m) => m[1] ?? m[2]!.trim());
      for (const [name, words] of LISTS) {
        for (const array of arrays) if (words.every((w) => array.includes(w))) copies.push(`${file}: [${array.join(', ')}] (${name})`);
        const listed = options.filter((w) => words.includes(w));
        if (listed.length >= 2) copies.push(`${file}: <option>s ${listed.join(', ')} (${name})`);
      }
    }
    expect(copies).toEqual([]);
  });

  it('docs/control-api.md names every topic of the change stream, and which are of one tenant', () => {
    const page = readFileSync(packagePath('docs/control-api.md'), 'utf8');
    const section = page.slice(page.indexOf('## The change stream'), page.indexOf('## The OpenAPI document'));
    const table = [...section.matchAll(/^\s*\| ([^|]+) \| [^|]+ \|$/gm)].flatMap((m) =>
      [...m[1]!.matchAll(/`([a-z-]+)`/g)].map((x) => x[1]!),
    );
    expect(table.sort()).toEqual([...vocabulary.CHANGE_TOPICS].sort());
    const tenant = /one tenant's records\s+\(([^)]*)\)/.exec(section)?.[1] ?? '';
    expect([...tenant.matchAll(/`([a-z-]+)`/g)].map((x) => x[1])).toEqual([...vocabulary.TENANT_CHANGE_TOPICS]);
  });
});
