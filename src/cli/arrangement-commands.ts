// `rules …`, `faults …`, `keys …` and `requests …`: the arrangements a test makes and the request
// journal, from the shell (docs/cli.md#rules-faults-keys-and-the-journal). `--account` scopes each to one
// tenant (docs/control-api.md#scoped-arrangements): what it adds is that tenant's own, what it lists or
// clears is that tenant's; without it, an add is sandbox-wide and a list or a clear reaches every scope.
import { readFile } from 'node:fs/promises';
import type { Argv } from 'yargs';
import type { AccountFilter } from '../client/control-client.js';
import { PIX_KEY_TYPES } from '../domain/vocabulary.js';
import type { PixKeyBody, RuleCreateBody } from '../schemas/control.js';
import type { FaultBody } from '../schemas/control-sandbox.js';
import { clientOf, connectionOptions, runCommand, UsageError } from './options.js';

const withAccount = <T>(y: Argv<T>, describe: string) =>
  connectionOptions(y).option('account', { type: 'string', describe: `${describe} (an account id)` });
const scopeOf = (a: { account?: string | undefined }): AccountFilter => (a.account ? { accountId: a.account } : {});

/** A rule as JSON text, or the path of a file holding it. */
async function ruleOf(arg: string): Promise<RuleCreateBody> {
  const text = arg.trim().startsWith('{')
    ? arg
    : await readFile(arg, 'utf8').catch((e: Error) => {
        throw new UsageError(`the rule is neither JSON nor a readable file: ${e.message}`);
      });
  try {
    return JSON.parse(text) as RuleCreateBody;
  } catch (e) {
    throw new UsageError(`the rule is not JSON: ${(e as Error).message}`);
  }
}

function rules(y: Argv): Argv {
  return y
    .command(
      'list',
      'outcome rules, oldest first (with --account: that tenant’s own)',
      (c) => withAccount(c, 'only this tenant’s own rules'),
      (a) => runCommand(() => clientOf(a).rules.list(scopeOf(a))),
    )
    .command(
      'add <rule>',
      'add a rule (JSON text or a file), or replace the rule of its id in its scope',
      (c) =>
        withAccount(c.positional('rule', { type: 'string', demandOption: true }), 'make it this tenant’s own').example(
          `$0 rules add '{"id":"slow","match":{"type":"CASH_OUT","amount":1000},"outcome":{"action":"wait"}}' --account 0000…`,
          '',
        ),
      (a) =>
        runCommand(async () => {
          const rule = await ruleOf(String(a.rule));
          return clientOf(a).rules.add({ ...rule, ...scopeOf(a) });
        }),
    )
    .command(
      'remove <id>',
      'remove one rule: the tenant’s own with --account, else the sandbox-wide one',
      (c) => withAccount(c.positional('id', { type: 'string', demandOption: true }), 'the tenant whose rule it is'),
      (a) => runCommand(async () => (await clientOf(a).rules.remove(String(a.id), scopeOf(a))) ?? { id: a.id, deleted: true }),
    )
    .command(
      'clear',
      'remove every rule (with --account: that tenant’s own)',
      (c) => withAccount(c, 'only this tenant’s own rules'),
      (a) => runCommand(async () => (await clientOf(a).rules.clear(scopeOf(a))) ?? { cleared: true }),
    )
    .demandCommand(1, 'name a rules command: list, add, remove, clear');
}

function faults(y: Argv): Argv {
  return y
    .command(
      'list',
      'injected HTTP faults, oldest first (with --account: that tenant’s own)',
      (c) => withAccount(c, 'only this tenant’s own faults'),
      (a) => runCommand(() => clientOf(a).faults.list(scopeOf(a))),
    )
    .command(
      'add <path>',
      'inject a fault into requests to a path (* one segment, ** any rest): an error status, a latency, or both',
      (c) =>
        withAccount(c.positional('path', { type: 'string', demandOption: true }), 'only this tenant’s requests')
          .option('method', { type: 'string', describe: 'only this method (GET also matches HEAD)' })
          .option('status', { type: 'number', describe: 'answer this status (400–599)' })
          .option('code', { type: 'string', describe: 'the error.code answered (default from the status)' })
          .option('message', { type: 'string' })
          .option('latency-ms', { type: 'number', describe: 'wait this long first' })
          .option('retry-after', { type: 'number', describe: 'the Retry-After of a 429 or 503 answer, in seconds (a 429: 1 unless given)' })
          .option('times', { type: 'number', describe: 'fire this many times, then go' })
          .option('probability', { type: 'number', describe: 'fire with this probability (above 0, at most 1)' })
          .example('$0 faults add /v1/banking/cash-out/pix --method POST --status 503 --times 2 --account 0000…', ''),
      (a) => {
        const body: FaultBody = { path: String(a.path), ...scopeOf(a) };
        if (a.method) body.method = a.method;
        // the sandbox names a bad number (and a fault with neither status nor latency) in its 400
        if (a.status !== undefined) body.status = a.status;
        if (a.code) body.code = a.code;
        if (a.message) body.message = a.message;
        if (a['latency-ms'] !== undefined) body.latencyMs = a['latency-ms'];
        if (a['retry-after'] !== undefined) body.retryAfterSeconds = a['retry-after'];
        if (a.times !== undefined) body.times = a.times;
        if (a.probability !== undefined) body.probability = a.probability;
        return runCommand(() => clientOf(a).faults.add(body));
      },
    )
    .command(
      'remove <id>',
      'remove one fault',
      (c) => connectionOptions(c).positional('id', { type: 'string', demandOption: true }),
      (a) => runCommand(async () => (await clientOf(a).faults.remove(String(a.id))) ?? { id: a.id, deleted: true }),
    )
    .command(
      'clear',
      'remove every fault (with --account: that tenant’s own)',
      (c) => withAccount(c, 'only this tenant’s own faults'),
      (a) => runCommand(async () => (await clientOf(a).faults.clear(scopeOf(a))) ?? { cleared: true }),
    )
    .demandCommand(1, 'name a faults command: list, add, remove, clear');
}

function keys(y: Argv): Argv {
  return y
    .command(
      'list',
      'the PIX key directory, oldest first (with --account: that tenant’s own entries)',
      (c) => withAccount(c, 'only this tenant’s own entries'),
      (a) => runCommand(() => clientOf(a).pixKeys.list(scopeOf(a))),
    )
    .command(
      'add <key>',
      'add a key to the directory, or replace its entry in its scope',
      (c) =>
        withAccount(
          c.positional('key', { type: 'string', demandOption: true }),
          'make it this tenant’s own (it shadows a sandbox-wide entry)',
        )
          .option('type', { type: 'string', demandOption: true, choices: PIX_KEY_TYPES, describe: 'the key kind' })
          .option('owner-name', { type: 'string', demandOption: true })
          .option('owner-document', { type: 'string', demandOption: true, describe: 'CPF or CNPJ, digits only' })
          .option('owner-ispb', { type: 'string', describe: "the owner's bank ISPB (8 digits)" })
          .option('unknown', { type: 'boolean', describe: 'known to be absent from DICT: transfers to it fail KEY_NOT_FOUND' })
          .example('$0 keys add loja@example.com --type EMAIL --owner-name Loja --owner-document 11222333000181 --account 0000…', ''),
      (a) => {
        const owner: PixKeyBody['owner'] = { name: a['owner-name'], document: a['owner-document'] };
        if (a['owner-ispb']) owner.ispb = a['owner-ispb'];
        const body: PixKeyBody = { key: String(a.key), keyType: a.type, owner, ...scopeOf(a) };
        if (a.unknown !== undefined) body.unknown = a.unknown;
        return runCommand(() => clientOf(a).pixKeys.add(body));
      },
    )
    .command(
      'remove <key>',
      'remove one key: the tenant’s own entry with --account, else the sandbox-wide one',
      (c) => withAccount(c.positional('key', { type: 'string', demandOption: true }), 'the tenant whose entry it is'),
      (a) => runCommand(async () => (await clientOf(a).pixKeys.remove(String(a.key), scopeOf(a))) ?? { key: a.key, deleted: true }),
    )
    .command(
      'clear',
      'clear the directory (with --account: that tenant’s own entries)',
      (c) => withAccount(c, 'only this tenant’s own entries'),
      (a) => runCommand(async () => (await clientOf(a).pixKeys.clear(scopeOf(a))) ?? { cleared: true }),
    )
    .demandCommand(1, 'name a keys command: list, add, remove, clear');
}

function requests(y: Argv): Argv {
  return y
    .command(
      'list',
      'the request journal, newest first, secrets redacted (with --account: that tenant’s requests)',
      (c) =>
        withAccount(c, 'only this tenant’s requests')
          .option('limit', { type: 'number', describe: 'at most this many (default 100)' })
          .option('method', { type: 'string' })
          .option('status', { type: 'number' })
          .option('path', { type: 'string', describe: 'a prefix of the path, e.g. /v1/banking' }),
      (a) =>
        runCommand(() =>
          clientOf(a).requests.list({
            ...scopeOf(a),
            ...(a.limit !== undefined ? { limit: a.limit } : {}),
            ...(a.method ? { method: a.method } : {}),
            ...(a.status !== undefined ? { status: a.status } : {}),
            ...(a.path ? { path: a.path } : {}),
          }),
        ),
    )
    .command(
      'clear',
      'empty the journal (with --account: that tenant’s requests)',
      (c) => withAccount(c, 'only this tenant’s requests'),
      (a) => runCommand(async () => (await clientOf(a).requests.clear(scopeOf(a))) ?? { cleared: true }),
    )
    .demandCommand(1, 'name a requests command: list, clear');
}

export function arrangementCommands(y: Argv): Argv {
  return y
    .command('rules <command>', 'outcome rules: list, add, remove, clear (--account: one tenant’s own)', (c) => rules(c))
    .command('faults <command>', 'injected HTTP faults: list, add, remove, clear (--account: one tenant’s own)', (c) => faults(c))
    .command('keys <command>', 'the PIX key directory: list, add, remove, clear (--account: one tenant’s own)', (c) => keys(c))
    .command('requests <command>', 'the request journal: list, clear (--account: one tenant’s)', (c) => requests(c));
}
