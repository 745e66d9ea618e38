// The dashboard is plain browser JavaScript and cannot import the server's lists: the ones it
// writes out (the fault actions of its "Fault…" picker, the event types) must stay the server's.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/domain/events.js';
import { packagePath } from '../../src/paths.js';
import { WEBHOOK_FAULT_ACTIONS } from '../../src/schemas/webhook-faults.js';

/** The string array `const <name> = [...]` of a ui/ file (exported or not). */
function uiList(file: string, name: string): string[] {
  const text = readFileSync(packagePath('ui', file), 'utf8');
  const m = new RegExp(`^(?:export )?const ${name} = \\[([^\\]]*)\\]`, 'm').exec(text);
  if (!m) throw new Error(`${name} not found in ui/${file}`);
  return [...m[1]!.matchAll(/'([^']*)'/g)].map((x) => x[1]!);
}

describe('the dashboard’s copies of server lists', () => {
  it('FAULT_ACTIONS (ui/webhook-faults.js) are the webhook fault actions', () => {
    expect(uiList('webhook-faults.js', 'FAULT_ACTIONS')).toEqual([...WEBHOOK_FAULT_ACTIONS]);
  });
  it('EVENT_TYPES (ui/shared.js) are the event types', () => {
    expect(uiList('shared.js', 'EVENT_TYPES')).toEqual([...EVENT_TYPES]);
  });
});
