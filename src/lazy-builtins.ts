// node:https and node:tls, loaded on first use: a sandbox with HTTPS off, a CLI call to an http://
// sandbox and a webhook to an http:// receiver never need them. Loading them costs ~7 ms of
// start-up, ~17 ms when node runs with V8 flags (as the command does: its #! line), because node
// then compiles its own modules without their code cache. Synchronous (require), so that callers
// stay as they are.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

export const httpsModule = (): typeof import('node:https') => load('node:https') as typeof import('node:https');
export const tlsModule = (): typeof import('node:tls') => load('node:tls') as typeof import('node:tls');
