// `webhooks fault …` and `webhooks send …`: delivery faults and arbitrary signed sends from the shell
// (docs/cli.md#webhooks, docs/webhooks.md#delivery-faults). Added to the `webhooks` command group.
import { readFile } from 'node:fs/promises';
import type { Argv } from 'yargs';
import type { WebhookFaultBody, WebhookSendBody } from '../client/control-client.js';
import { WEBHOOK_FAULT_ACTIONS, SEND_SIGNATURES } from '../domain/vocabulary.js';
import type { EventType } from '../store/model.js';
import { clientOf, connectionOptions, runCommand, UsageError } from './options.js';

function faults(y: Argv): Argv {
  return y
    .command(
      'add <action>',
      'add a delivery fault for the next matching deliveries',
      (c) =>
        connectionOptions(c)
          .positional('action', { type: 'string', demandOption: true, choices: WEBHOOK_FAULT_ACTIONS })
          .option('endpoint-id', { type: 'string', describe: 'only deliveries to this endpoint (the fault joins its account)' })
          .option('account-id', {
            type: 'string',
            describe: "the account whose deliveries it touches (default: the endpoint's, else the default account)",
          })
          .option('event-type', { type: 'string', describe: 'only this event type, e.g. cashin.created' })
          .option('transaction-id', { type: 'string', describe: 'only events of this transaction' })
          .option('times', { type: 'number', describe: 'how many deliveries it applies to (default 1)' })
          .option('seconds', { type: 'number', describe: 'delay only: how long the first attempt waits, on the sandbox clock' })
          .example('$0 webhooks fault add reorder --event-type cashin.created', '')
          .example('$0 webhooks fault add delay --seconds 30 --times 3', ''),
      (a) => {
        const body: WebhookFaultBody = { action: a.action };
        if (a['endpoint-id']) body.endpointId = a['endpoint-id'];
        if (a['account-id']) body.accountId = a['account-id'];
        if (a['event-type']) body.eventType = a['event-type'] as EventType;
        if (a['transaction-id']) body.transactionId = a['transaction-id'];
        // the sandbox names a bad number (and seconds without delay) in its 400
        if (a.times !== undefined) body.times = a.times;
        if (a.seconds !== undefined) body.seconds = a.seconds;
        return runCommand(() => clientOf(a).webhooks.faults.add(body));
      },
    )
    .command(
      'list',
      'the delivery faults, in the order they are tried',
      (c) => connectionOptions(c).option('account-id', { type: 'string', describe: "only this account's faults" }),
      (a) => runCommand(() => clientOf(a).webhooks.faults.list(a['account-id'] ? { accountId: a['account-id'] } : {})),
    )
    .command(
      'remove <id>',
      'remove one delivery fault',
      (c) => connectionOptions(c).positional('id', { type: 'string', demandOption: true }),
      (a) => runCommand(async () => (await clientOf(a).webhooks.faults.remove(String(a.id))) ?? { id: a.id, deleted: true }),
    )
    .command(
      'clear',
      'remove every delivery fault (or one account’s)',
      (c) => connectionOptions(c).option('account-id', { type: 'string' }),
      (a) =>
        runCommand(
          async () => (await clientOf(a).webhooks.faults.clear(a['account-id'] ? { accountId: a['account-id'] } : {})) ?? { cleared: true },
        ),
    )
    .demandCommand(1, 'name a webhooks fault command: add, list, remove, clear');
}

async function bodyOf(a: { body?: string | undefined; 'body-file'?: string | undefined }): Promise<unknown> {
  if ((a.body === undefined) === (a['body-file'] === undefined)) throw new UsageError('give exactly one of --body and --body-file');
  let text: string;
  try {
    text = a.body ?? (await readFile(String(a['body-file']), 'utf8'));
  } catch (e) {
    throw new UsageError(`cannot read the body file: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new UsageError(`the body is not JSON: ${(e as Error).message}`);
  }
}

/** Adds `fault …` and `send …` to the `webhooks` group. */
export function webhookFaultCommands(y: Argv): Argv {
  return y
    .command('fault <command>', 'delivery faults: add, list, remove, clear', (c) => faults(c))
    .command(
      'send <endpointId>',
      'send any JSON body to an endpoint once, signed as asked; prints the receiver’s status',
      (c) =>
        connectionOptions(c)
          .positional('endpointId', { type: 'string', demandOption: true })
          .option('body', { type: 'string', describe: 'the JSON to send' })
          .option('body-file', { type: 'string', describe: 'a file holding the JSON to send' })
          .option('signature', { type: 'string', choices: SEND_SIGNATURES, describe: 'valid (default), bad or stale' })
          .example(`$0 webhooks send 8c1e… --body '{"id":"evt_1","type":"cashin.paid"}' --signature bad`, ''),
      (a) =>
        runCommand(async () => {
          const input: WebhookSendBody = { endpointId: String(a.endpointId), body: await bodyOf(a) };
          if (a.signature) input.signature = a.signature;
          return clientOf(a).webhooks.send(input);
        }),
    );
}
