// Reset (docs/decisions.md#d46-reset): back to a fixture set. The data file is kept aside (never
// overwritten), every record and the clock offset go, the fixtures are loaded again, all at one instant
// whatever is being written (Store.replace, docs/store.md#reset). The token
// signing secret and the token generation counter stay, so the principals made again take new
// generations: every token issued before the reset is refused (docs/decisions.md#d46-reset). The fixture set is
// read, validated and its secrets hashed before anything is touched: a bad set changes nothing.
import { readdir } from 'node:fs/promises';
import type { AppContext } from '../context.js';
import { realClock } from '../clock/clock.js';
import { SandboxError } from '../domain/errors.js';
import { packagePath } from '../paths.js';
import type { Fixtures } from '../schemas/fixtures.js';
import { checkFixtures, hashFixtureSecrets, readFixtures, seed, withConfiguredCredentials } from './seed.js';
import { emptyData } from '../store/model.js';
import { ensureConfigEndpoint } from './webhook-endpoints.js';

/** The fixture sets shipped in the package's fixtures/ folder, by name. */
async function shippedFixtureSets(): Promise<string[]> {
  const files = await readdir(packagePath('fixtures')).catch(() => [] as string[]);
  return files
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .sort();
}

/**
 * What a reset loads: the configured fixtures (no argument), a shipped set by name, or an inline
 * fixture object. Never a filesystem path from a request.
 */
export async function resolveFixtures(ctx: AppContext, spec?: string | Record<string, unknown>): Promise<Fixtures> {
  if (spec === undefined) return readFixtures(ctx.config.fixtures);
  if (typeof spec === 'string') {
    const names = await shippedFixtureSets();
    if (!names.includes(spec))
      throw new SandboxError('VALIDATION_ERROR', `there is no fixture set named "${spec}"; shipped sets: ${names.join(', ')}`, [
        { path: '/fixtures', message: 'is not the name of a shipped fixture set' },
      ]);
    return readFixtures(packagePath('fixtures', `${spec}.json`));
  }
  try {
    return checkFixtures(structuredClone(spec));
  } catch (e) {
    if (!(e instanceof SandboxError)) throw e;
    const details = e.details.map((d) => ({ ...d, path: `/fixtures${d.path === '/' ? '' : d.path}` }));
    throw new SandboxError('VALIDATION_ERROR', `fixtures: ${e.message}`, details);
  }
}

export function resetSandbox(ctx: AppContext, fixtures: Fixtures): Promise<{ movedAsideTo: string | null }> {
  // one reset at a time: a second waits for the first, then starts afresh itself
  const run = ctx.resetting.catch(() => undefined).then(() => doReset(ctx, fixtures));
  ctx.resetting = run;
  return run;
}

async function doReset(ctx: AppContext, fixtures: Fixtures): Promise<{ movedAsideTo: string | null }> {
  const hashes = await hashFixtureSecrets(withConfiguredCredentials(fixtures, ctx.config));

  const stamp = new Date(realClock.nowMs()).toISOString().replace(/[-:.]/g, '');
  // the old data ends and the fixtures begin in one step: no change of the old data lands in the new store
  const movedAsideTo = await ctx.store.replace(
    `reset-${stamp}`,
    (old) => {
      // the clock offset goes with the old data, so "now" is real time again
      const fresh = emptyData(old.signingSecret, new Date(realClock.nowMs()).toISOString());
      // kept like the secret: the principals the fixtures make again take new generations, so no older token passes
      if (old.tokenGeneration !== undefined) fresh.meta.tokenGeneration = old.tokenGeneration;
      return fresh;
    },
    (tx) => {
      seed(tx, fixtures, hashes, ctx.clock.nowIso(), ctx.newId);
      ensureConfigEndpoint(tx, ctx);
    },
  );
  ctx.journal.clear();
  ctx.rateLimits.clear();
  ctx.random.restartFaults();
  return { movedAsideTo };
}
