// `snapshots …`: named snapshots of a running sandbox (docs/control-api.md#snapshots) from the shell.
import { writeFile } from 'node:fs/promises';
import type { Argv } from 'yargs';
import { clientOf, connectionOptions, runCommand } from './options.js';

const name = <T>(c: Argv<T>) => connectionOptions(c).positional('name', { type: 'string', demandOption: true, describe: 'the snapshot' });

function snapshots(y: Argv): Argv {
  return y
    .command(
      'save <name>',
      "save a tenant's whole world (--account), or the whole sandbox, under a name",
      (c) =>
        name(c)
          .option('account', { type: 'string', describe: 'the tenant (account id); absent: the whole sandbox' })
          .option('replace', { type: 'boolean', describe: 'replace a snapshot of the same name' })
          .example('$0 snapshots save arranged --account 00000000-0000-4000-8000-000000000001', ''),
      (a) =>
        runCommand(() =>
          clientOf(a).snapshots.save(String(a.name), {
            ...(a.account ? { accountId: a.account } : {}),
            ...(a.replace ? { replace: true } : {}),
          }),
        ),
    )
    .command(
      'list',
      'list the named snapshots',
      (c) => connectionOptions(c).option('account', { type: 'string', describe: "only this tenant's" }),
      (a) => runCommand(() => clientOf(a).snapshots.list(a.account ? { accountId: a.account } : {})),
    )
    .command(
      'restore <name>',
      'put its tenant (or the whole sandbox) back as it was',
      (c) => name(c),
      (a) => runCommand(() => clientOf(a).snapshots.restore(String(a.name))),
    )
    .command(
      'export <name>',
      'the snapshot as a fixtures document: --fixtures starts a sandbox in its state',
      (c) => name(c).option('out', { type: 'string', describe: 'write it to this file (default: print it)' }),
      (a) =>
        runCommand(async () => {
          const doc = await clientOf(a).snapshots.export(String(a.name));
          if (!a.out) return doc;
          await writeFile(a.out, `${JSON.stringify(doc, null, 2)}\n`);
          return { name: a.name, file: a.out, transactions: doc.transactions?.length ?? 0 };
        }),
    )
    .command(
      'delete <name>',
      'delete a snapshot',
      (c) => name(c),
      // a 204 has no body: say what was removed
      (a) => runCommand(async () => (await clientOf(a).snapshots.remove(String(a.name))) ?? { name: a.name, deleted: true }),
    )
    .demandCommand(1, 'name a snapshots command: save, list, restore, export, delete');
}

export function snapshotCommands(y: Argv): Argv {
  return y.command('snapshots <command>', 'named snapshots: save, list, restore, export, delete', (c) => snapshots(c));
}
