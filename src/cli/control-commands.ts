// Thin commands over the control API (docs/control-api.md) of a running sandbox. Each prints the
// resulting resource as JSON; exit 0 success, 1 the call failed (the sandbox's message), 2 bad usage.
import { readFile, stat } from 'node:fs/promises';
import type { Argv } from 'yargs';
import type { Payer } from '../client/control-client.js';
import type { ClosingAction } from '../domain/charges.js';
import { QR_IMAGE_MAX_BYTES } from '../schemas/control.js';
import type { ResetBody } from '../schemas/control-sandbox.js';
import { clientOf, connectionOptions, runCommand, UsageError } from './options.js';

const withConn = <T>(y: Argv<T>) => connectionOptions(y);

/** "301", "90s", "5m", "2h", "1d" → seconds */
function parseDuration(raw: string): number {
  const m = /^(\d+)\s*(s|m|h|d)?$/i.exec(String(raw).trim());
  if (!m) throw new UsageError(`"${raw}" is not a duration: use seconds (301) or 90s, 5m, 2h, 1d`);
  return Number(m[1]) * { s: 1, m: 60, h: 3600, d: 86400 }[(m[2] ?? 's').toLowerCase() as 's'];
}

/** A path to an existing file is read and sent inline; anything else is a shipped set's name. */
async function fixturesArg(value: string): Promise<string | Record<string, unknown>> {
  const isFile = await stat(value).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!isFile) {
    if (/[\\/]|\.json$/i.test(value)) throw new UsageError(`no such fixture file: ${value}`);
    return value;
  }
  try {
    // the sandbox validates the object (a file that is not a fixture object is its 400, naming the field)
    return JSON.parse(await readFile(value, 'utf8')) as Record<string, unknown>;
  } catch (e) {
    throw new UsageError(`cannot read fixtures ${value}: ${(e as Error).message}`);
  }
}

function payerOf(a: Record<string, unknown>): Payer | undefined {
  const fields = ['name', 'document', 'ispb', 'account_number', 'account_type'] as const;
  const payer: Record<string, string> = {};
  for (const f of fields) {
    const v = a[`payer-${f.replace('_', '-')}`];
    if (typeof v === 'string' || typeof v === 'number') payer[f] = String(v);
  }
  return Object.keys(payer).length ? payer : undefined;
}

function chargeAction(y: Argv, action: ClosingAction, describe: string): Argv {
  return y.command(
    `${action} <id>`,
    describe,
    (c) =>
      withConn(c)
        .positional('id', { type: 'string', demandOption: true, describe: 'the charge (transactionId)' })
        .example(`$0 ${action} 6f1c…`, ''),
    (a) => runCommand(() => clientOf(a)[action](String(a.id))),
  );
}

/** The image file's bytes as base64, refused here (exit 2) when it cannot be sent. */
async function qrImageArg(file: string): Promise<string> {
  const size = await stat(file).then(
    (s) => (s.isFile() ? s.size : -1),
    () => -1,
  );
  if (size < 0) throw new UsageError(`no such image file: ${file}`);
  if (size > QR_IMAGE_MAX_BYTES) throw new UsageError(`${file} is ${size} bytes; the sandbox reads images of at most 5 MiB`);
  return (await readFile(file)).toString('base64');
}

function payCommand(y: Argv): Argv {
  return y.command(
    'pay [id]',
    'pay a charge now (WAITING_PAYMENT → PAID), by id, by its copy-and-paste code or by an image of its QR code',
    (c) =>
      withConn(c)
        .positional('id', { type: 'string', describe: 'the charge (transactionId)' })
        .option('pix-code', { type: 'string', describe: 'pay whichever charge this copy-and-paste code belongs to, as a payer app would' })
        .option('qr-image', {
          type: 'string',
          describe: 'pay the charge whose QR code appears in this PNG or JPEG file (a screenshot will do), as a payer app would',
        })
        .option('payer-name', { type: 'string', describe: "payer's name" })
        .option('payer-document', { type: 'string', describe: "payer's CPF or CNPJ, digits only" })
        .option('payer-ispb', { type: 'string', describe: "payer's bank ISPB (8 digits)" })
        .option('payer-account-number', { type: 'string' })
        .option('payer-account-type', { type: 'string' })
        .example('$0 pay 6f1c2d3e-…', 'pay with generated payer data')
        .example("$0 pay --pix-code '00020126…6304ABCD' --payer-name 'Maria Silva'", 'pay by code')
        .example('$0 pay --qr-image checkout.png', 'pay the charge shown in a screenshot'),
    (a) =>
      runCommand(async () => {
        const payer = payerOf(a);
        const given = [a.id, a['pix-code'], a['qr-image']].filter((v) => v !== undefined && v !== '').length;
        if (given > 1) throw new UsageError('give one of a charge id, --pix-code or --qr-image');
        if (a['pix-code']) return clientOf(a).payByCode(a['pix-code'], payer);
        if (a['qr-image']) return clientOf(a).payByQrImage(await qrImageArg(a['qr-image']), payer);
        if (!a.id) throw new UsageError('pay needs a charge id, --pix-code or --qr-image');
        return clientOf(a).pay(a.id, payer);
      }),
  );
}

function transferCommands(y: Argv): Argv {
  return y
    .command(
      'complete <id>',
      'settle a transfer now as COMPLETED, whatever the key directory says',
      (c) => withConn(c).positional('id', { type: 'string', demandOption: true, describe: 'the transfer (transactionId)' }),
      (a) => runCommand(() => clientOf(a).complete(String(a.id))),
    )
    .command(
      'fail <id>',
      'end a transfer FAILED with a code and message (the amount is credited back)',
      (c) =>
        withConn(c)
          .positional('id', { type: 'string', demandOption: true, describe: 'the transfer (transactionId)' })
          .option('code', {
            type: 'string',
            demandOption: true,
            describe: 'error code shown in the lookup and the webhook, e.g. ACCOUNT_BLOCKED',
          })
          .option('message', { type: 'string', describe: 'error message' })
          .example('$0 fail 6f1c… --code ACCOUNT_BLOCKED --message "destination account is blocked"', ''),
      (a) => runCommand(() => clientOf(a).fail(String(a.id), { code: a.code, ...(a.message !== undefined ? { message: a.message } : {}) })),
    );
}

function clockCommands(y: Argv): Argv {
  return y
    .command(
      'advance <duration>',
      "move a tenant's clock (--account) or every tenant's forward, walking through what falls due: expiries, settlements, retries",
      (c) =>
        withConn(c)
          .positional('duration', { type: 'string', demandOption: true, describe: 'seconds, or 90s, 5m, 2h, 1d' })
          .option('account', { type: 'string', describe: 'the tenant (account id) to move alone; default: every tenant' })
          .example('$0 advance 301', 'expire every token issued until now')
          .example('$0 advance 3h --account 0000…', "one tenant's 3 hours: its webhook retries run through their schedule"),
      (a) =>
        runCommand(() =>
          clientOf(a).advanceClock(parseDuration(String(a.duration)), a.account !== undefined ? { accountId: String(a.account) } : {}),
        ),
    )
    .command(
      'freeze',
      "stop a tenant's clock (--account) or every tenant's where it stands (only an advance moves it then)",
      (c) => withConn(c).option('account', { type: 'string', describe: 'the tenant (account id); default: every tenant' }),
      (a) => runCommand(() => clientOf(a).freezeClock(a.account === undefined ? undefined : String(a.account))),
    )
    .command(
      'unfreeze',
      "let a tenant's clock (--account) or every tenant's flow again from where it stands",
      (c) => withConn(c).option('account', { type: 'string', describe: 'the tenant (account id); default: every tenant' }),
      (a) => runCommand(() => clientOf(a).unfreezeClock(a.account === undefined ? undefined : String(a.account))),
    )
    .command(
      'reset',
      'back to the fixtures: clears every record and the clock offset',
      (c) =>
        withConn(c)
          .option('fixtures', {
            type: 'string',
            describe: 'a local fixture file (JSON, sent inline), or the name of a set shipped with the sandbox',
          })
          .example('$0 reset', 'back to the configured fixtures')
          .example('$0 reset --fixtures example-marketplace', 'load a shipped set by name')
          .example('$0 reset --fixtures ./my-fixtures.json', 'load a local file'),
      (a) =>
        runCommand(async () => {
          const body: ResetBody = a.fixtures ? { fixtures: await fixturesArg(a.fixtures) } : {};
          return clientOf(a).reset(body);
        }),
    );
}

export function controlCommands(y: Argv): Argv {
  let cli = payCommand(y);
  cli = chargeAction(cli, 'expire', 'expire a charge now (WAITING_PAYMENT → EXPIRED)');
  cli = chargeAction(cli, 'cancel', 'cancel a charge (WAITING_PAYMENT → CANCELLED)');
  return clockCommands(transferCommands(cli));
}
