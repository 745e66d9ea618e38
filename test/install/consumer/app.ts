// An app's test set-up, as the install docs show it: the package imported by its name, a sandbox
// started in-process, the typed clients. Type-checked with skipLibCheck: false, then run.
import { startSandbox, waitForSandbox, type Sandbox, type WaitResult } from 'pix-sandbox';

const sandbox: Sandbox = await startSandbox();
try {
  const ready: WaitResult = await waitForSandbox(sandbox.url, { timeoutSeconds: 10 });
  if (!ready.ready) throw new Error(`not ready: ${ready.lastSeen}`);
  const { data } = await sandbox.client.getBalance();
  const clock = await sandbox.control.clock();
  console.log(JSON.stringify({ ready: ready.health.ready, balance: data.balance, clock: typeof clock.now }));
} finally {
  await sandbox.stop();
}
