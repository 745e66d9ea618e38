// `webhooks …`, `accounts …`, `clock` and `health`: the control API's resources from the shell.
import type { Argv } from 'yargs';
import { DELIVERY_STATUSES } from '../domain/vocabulary.js';
import type { EventType } from '../store/model.js';
import { clientOf, connectionOptions, runCommand, UsageError } from './options.js';
import { webhookFaultCommands } from './webhook-fault-commands.js';

/** An empty flag (--account-id '') filters nothing. */
const given = <T>(v: T | undefined): T | undefined => (v === '' ? undefined : v);

function webhooks(y: Argv): Argv {
  return webhookFaultCommands(y)
    .command(
      'list',
      'list the registered webhook endpoints',
      (c) => connectionOptions(c).option('account-id', { type: 'string', describe: "only this account's endpoints" }),
      (a) => runCommand(() => clientOf(a).webhooks.list({ accountId: given(a['account-id']) })),
    )
    .command(
      'add <url>',
      'register an endpoint; the answer carries its signing secret',
      (c) =>
        connectionOptions(c)
          .positional('url', { type: 'string', demandOption: true })
          .option('events', { type: 'string', describe: 'comma-separated event types (default: all), e.g. cashin.paid,cashout.failed' })
          .option('account-id', { type: 'string', describe: 'the account whose events it receives (default: the default account)' }),
      (a) =>
        runCommand(() =>
          clientOf(a).webhooks.add({
            url: String(a.url),
            ...(a.events
              ? {
                  // the sandbox names an unknown type in its 400
                  events: String(a.events)
                    .split(',')
                    .map((s) => s.trim() as EventType),
                }
              : {}),
            ...(a['account-id'] ? { accountId: a['account-id'] } : {}),
          }),
        ),
    )
    .command(
      'remove <id>',
      'delete an endpoint',
      (c) => connectionOptions(c).positional('id', { type: 'string', demandOption: true }),
      // a 204 has no body: say what was removed
      (a) => runCommand(async () => (await clientOf(a).webhooks.remove(String(a.id))) ?? { id: a.id, deleted: true }),
    )
    .command(
      'deliveries',
      'the delivery log: every attempt with its time, status and error',
      (c) =>
        connectionOptions(c)
          .option('transaction-id', { type: 'string', describe: 'only deliveries of this transaction' })
          .option('account-id', { type: 'string', describe: "only deliveries to this account's endpoints" })
          .option('event-type', { type: 'string', describe: 'only this event type, e.g. cashout.failed' })
          .option('status', { type: 'string', choices: DELIVERY_STATUSES })
          .option('limit', { type: 'number', describe: 'at most this many, newest first (default 100)' }),
      (a) =>
        runCommand(() =>
          clientOf(a).webhooks.deliveries({
            transactionId: given(a['transaction-id']),
            accountId: given(a['account-id']),
            eventType: given(a['event-type']) as EventType | undefined,
            status: given(a.status),
            limit: a.limit,
          }),
        ),
    )
    .command(
      'fire <transactionId>',
      'send an event for a transaction now (default: the event of its current status)',
      (c) =>
        connectionOptions(c)
          .positional('transactionId', { type: 'string', demandOption: true })
          .option('type', { type: 'string', describe: 'event type, e.g. cashin.paid' })
          .example('$0 webhooks fire 6f1c… --type cashin.paid', ''),
      (a) =>
        runCommand(() =>
          clientOf(a).webhooks.fire({ transactionId: String(a.transactionId), ...(a.type ? { type: a.type as EventType } : {}) }),
        ),
    )
    .command(
      'redeliver <deliveryId>',
      'attempt a delivery again now (a DEAD one included)',
      (c) => connectionOptions(c).positional('deliveryId', { type: 'string', demandOption: true }),
      (a) => runCommand(() => clientOf(a).webhooks.redeliver(String(a.deliveryId))),
    )
    .demandCommand(1, 'name a webhooks command: list, add, remove, deliveries, fire, redeliver, fault, send');
}

/** The rate limit flags: on when any is given, the others at their defaults. */
function rateLimitOption(requestsPerSecond?: number, burst?: number, tokenRequestsPerMinute?: number) {
  const given = Object.entries({ requestsPerSecond, burst, tokenRequestsPerMinute }).filter(([, v]) => v !== undefined);
  return given.length > 0 ? { rateLimit: Object.fromEntries(given) } : {};
}

function accounts(y: Argv): Argv {
  return y
    .command(
      'create <name>',
      'create an isolated tenant; prints its client_id and, this once, its client_secret',
      (c) =>
        connectionOptions(c)
          .positional('name', { type: 'string', demandOption: true })
          .option('split-enabled', { type: 'boolean', describe: 'enable the split feature' })
          .option('settle-after-seconds', { type: 'number', describe: 'transfers settle this long after creation (default 2)' })
          .option('auto-pay-after-seconds', { type: 'number', describe: 'charges are paid automatically this long after creation' })
          .option('rate-limit-rps', {
            type: 'number',
            describe: "rate limit: each client's API requests a second (docs/api.md#rate-limits)",
          })
          .option('rate-limit-burst', { type: 'number', describe: "rate limit: each client's API requests at once" })
          .option('rate-limit-token-rpm', { type: 'number', describe: "rate limit: each client's token requests a minute" })
          .option('client-id', { type: 'string', describe: 'choose the client_id (generated when absent)' })
          .option('client-secret', { type: 'string', describe: 'choose the client_secret (generated when absent)' })
          .example('$0 accounts create "team A CI" --split-enabled', ''),
      (a) =>
        runCommand(() =>
          clientOf(a).createAccount({
            name: String(a.name),
            ...(a['split-enabled'] !== undefined ? { splitEnabled: a['split-enabled'] } : {}),
            ...(a['settle-after-seconds'] !== undefined ? { settleAfterSeconds: a['settle-after-seconds'] } : {}),
            ...(a['auto-pay-after-seconds'] !== undefined ? { autoPayAfterSeconds: a['auto-pay-after-seconds'] } : {}),
            ...rateLimitOption(a['rate-limit-rps'], a['rate-limit-burst'], a['rate-limit-token-rpm']),
            ...(a['client-id'] ? { client_id: a['client-id'] } : {}),
            ...(a['client-secret'] ? { client_secret: a['client-secret'] } : {}),
          }),
        ),
    )
    .command(
      'list',
      'list the accounts (tenants)',
      (c) => connectionOptions(c),
      (a) => runCommand(() => clientOf(a).accounts()),
    )
    .command(
      'credit <id> <amount>',
      "move money into an account's main balance (a negative amount moves it out)",
      (c) =>
        connectionOptions(c)
          .positional('id', { type: 'string', demandOption: true })
          .positional('amount', { type: 'string', demandOption: true, describe: 'cents, e.g. 50000 or -100' })
          .option('description', { type: 'string' }),
      (a) =>
        runCommand(() => {
          const amount = Number(a.amount);
          if (!Number.isInteger(amount) || amount === 0)
            throw new UsageError(`amount must be a non-zero integer number of cents (got ${a.amount})`);
          return clientOf(a).credit(String(a.id), amount, a.description || undefined);
        }),
    )
    .command(
      'delete <id>',
      'delete a tenant and everything of it (its tokens answer 401 from then on); the default account cannot be',
      (c) => connectionOptions(c).positional('id', { type: 'string', demandOption: true }),
      (a) => runCommand(async () => (await clientOf(a).deleteAccount(String(a.id))) ?? { id: a.id, deleted: true }),
    )

    .command(
      'reset <id>',
      'put a tenant back as it stood right after it was created or loaded from fixtures (its id and credentials kept)',
      (c) => connectionOptions(c).positional('id', { type: 'string', demandOption: true }),
      (a) => runCommand(() => clientOf(a).resetAccount(String(a.id))),
    )
    .demandCommand(1, 'name an accounts command: create, list, credit, delete, reset');
}

export function resourceCommands(y: Argv): Argv {
  return y
    .command('webhooks <command>', 'webhook endpoints and deliveries: list, add, remove, deliveries, fire, redeliver, fault, send', (c) =>
      webhooks(c),
    )
    .command('accounts <command>', 'tenants: create, list, credit, delete, reset', (c) => accounts(c))
    .command(
      'clock',
      "show a tenant's clock (--account) or the sandbox-wide one",
      (c) => connectionOptions(c).option('account', { type: 'string', describe: 'the tenant (account id)' }),
      (a) => runCommand(() => clientOf(a).clock(a.account === undefined ? undefined : String(a.account))),
    )
    .command(
      'health',
      'check that the sandbox answers',
      (c) => connectionOptions(c),
      (a) => runCommand(() => clientOf(a).health()),
    );
}
