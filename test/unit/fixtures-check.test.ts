import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/domain/errors.js';
import { checkFixtures } from '../../src/services/seed.js';

const base = JSON.parse(readFileSync(new URL('../../fixtures/default.json', import.meta.url), 'utf8'));

describe('fixture checks', () => {
  it('accepts the shipped default set', () => {
    expect(checkFixtures(structuredClone(base)).accounts[0]!.client_id).toBe('sandbox-client');
  });

  it('refuses a key that does not fit its kind, as the control API does, naming where it is', () => {
    const bad = {
      ...structuredClone(base),
      pixKeys: [{ key: '12345678900', keyType: 'CPF', owner: { name: 'X', document: '52998224725' } }],
    };
    let err: unknown;
    try {
      checkFixtures(bad);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as SandboxError).details[0]!.path).toBe('/pixKeys/0/key');
  });

  it('refuses a rule the control API would refuse, naming the field of the rule in the file', () => {
    const rules = structuredClone(base.rules ?? []);
    rules.push({ match: { type: 'CASH_IN' }, outcome: 'not-an-outcome' });
    let err: unknown;
    try {
      checkFixtures({ ...structuredClone(base), rules });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as SandboxError).message).toMatch(new RegExp(`^rules\\.${rules.length - 1}\\.outcome `));
    expect((err as SandboxError).details[0]!.path).toMatch(new RegExp(`^/rules/${rules.length - 1}/`));
  });
});
