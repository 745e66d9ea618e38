// The browser the dashboard tests drive: Debian's chromium through playwright-core (never a
// downloaded one), headless, with the flags that keep it from reaching anything but the sandbox.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** The dashboard fits a 1366×768 laptop screen (docs/dashboard.md). */
export const VIEWPORT = { width: 1366, height: 768 };

/** `extraArgs`: more switches (the cross-site tests map a made-up name to 127.0.0.1 with --host-resolver-rules). */
export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...LAUNCH_ARGS, ...extraArgs] });
}
