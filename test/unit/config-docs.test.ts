// The defaults live in src/config.ts only: `serve`'s options and their help are built from it, and
// the table of docs/configuration.md#serve-options must say the same (every option, its variable and
// its default), so the page cannot drift from the code.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { configFromArgs, serveOptions } from '../../src/cli/serve.js';
import { defaultConfig, envVar, SERVE_OPTIONS, shownDefault } from '../../src/config.js';
import { packagePath } from '../../src/paths.js';

interface Row {
  flags: string[];
  variables: string[];
  default: string;
}

function serveOptionsTable(): Row[] {
  const page = readFileSync(packagePath('docs', 'configuration.md'), 'utf8');
  const section = page.slice(page.indexOf('## Serve options'));
  const body = section.slice(0, section.indexOf('\n## ', 1));
  return body
    .split('\n')
    .filter((line) => line.startsWith('| `--'))
    .map((line) => {
      const cells = line.split(' | ').map((c) => c.replace(/^\| |\s*\|$/g, '').trim());
      const codes = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
      return {
        flags: codes(cells[0]!).map((f) => f.replace(/^--/, '')),
        variables: codes(cells[1]!),
        default: cells[2]!.replace(/`/g, ''),
      };
    });
}

describe('docs/configuration.md agrees with src/config.ts', () => {
  const rows = serveOptionsTable();

  it('lists every serve option once, and nothing else', () => {
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.flatMap((r) => r.flags).sort()).toEqual(SERVE_OPTIONS.map((o) => o.flag).sort());
  });

  for (const o of SERVE_OPTIONS) {
    it(`--${o.flag}: the variable and the default are the code's`, () => {
      const row = rows.find((r) => r.flags.includes(o.flag));
      expect(row, `no row for --${o.flag}`).toBeDefined();
      expect(row!.variables[row!.flags.indexOf(o.flag)]).toBe(envVar(o.flag));
      expect(row!.default).toBe(shownDefault(o));
    });
  }

  // computed defaults: the fixtures path (the package's folder), the HTTPS port (follows --port 0)
  it('words a default only where defaultConfig() holds none or a computed one', () => {
    const config = defaultConfig();
    for (const o of SERVE_OPTIONS)
      if ('shown' in o)
        expect(
          config[o.key] === null || o.key === 'fixtures' || o.key === 'httpsPort',
          `--${o.flag} has a plain default: drop its words`,
        ).toBe(true);
  });
});

describe('serve options are read from src/config.ts', () => {
  it('help names each option with its variable and its default', async () => {
    const help = await serveOptions(yargs([]).wrap(null)).getHelp();
    for (const o of SERVE_OPTIONS) {
      const line = help.split('\n').find((l) => l.trimStart().startsWith(`--${o.flag} `));
      expect(line, `--${o.flag} is missing from the help`).toBeDefined();
      expect(line).toContain(`[${envVar(o.flag)}]`);
      expect(line).toContain(`[default: ${shownDefault(o)}]`);
    }
  });

  it('no flag given is defaultConfig(); a given flag overrides only its field', async () => {
    const none = await serveOptions(yargs([])).parseAsync();
    expect(configFromArgs(none)).toEqual(defaultConfig());
    const some = await serveOptions(yargs(['--port', '0', '--no-fsync', '--webhook-retry', '1,2', '--https-port', 'off'])).parseAsync();
    expect(configFromArgs(some)).toEqual({ ...defaultConfig(), port: 0, fsync: false, webhookRetrySchedule: [1, 2], httpsPort: null });
    // HTTPS follows --port 0 to a free port unless told otherwise
    expect(configFromArgs(await serveOptions(yargs(['--port', '0'])).parseAsync()).httpsPort).toBe(0);
    expect(() => configFromArgs(serveOptions(yargs(['--port', '70000'])).parseSync())).toThrow(/--port must be a port number/);
  });
});
