// Every rule a schema can break is named in the sandbox's words: ajv's own wording ("must NOT have
// fewer than 1 characters", "must be string") never reaches a client.
import { describe, expect, it } from 'vitest';
import { SandboxError } from '../../src/domain/errors.js';
import { validateBody } from '../../src/schemas/validator.js';

const schema = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: {
    id: { type: 'string' },
    name: { type: 'string', minLength: 1, maxLength: 3 },
    code: { type: 'string', minLength: 2 },
    count: { type: 'integer', minimum: 1, maximum: 5 },
    ratio: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1, multipleOf: 0.25 },
    tags: { type: 'array', minItems: 1, maxItems: 2, uniqueItems: true, items: { type: 'string' } },
    kind: { type: 'string', enum: ['A', 'B'] },
    fixed: { const: 'x' },
    mail: { type: 'string', format: 'email' },
    at: { type: 'string', format: 'date-time' },
    ref: { type: 'string', pattern: '^r[0-9]+$' },
    flag: { type: 'boolean' },
    maybe: { type: ['string', 'null'] },
    extra: { type: 'object', minProperties: 1 },
  },
};

function detailsOf(body: unknown): Record<string, string> {
  try {
    validateBody(schema, body);
  } catch (e) {
    expect(e).toBeInstanceOf(SandboxError);
    return Object.fromEntries((e as SandboxError).details.map((d) => [d.path, d.message]));
  }
  throw new Error('the body passed');
}

describe('validation messages', () => {
  it('name each broken rule in our words, every one in one answer', () => {
    expect(
      detailsOf({
        name: '',
        code: 'x',
        count: 9,
        ratio: 0.3,
        tags: [],
        kind: 'C',
        fixed: 'y',
        mail: 'nope',
        at: 'yesterday',
        ref: 'q1',
        flag: 'yes',
        maybe: 3,
        extra: {},
        surprise: 1,
      }),
    ).toEqual({
      '/id': 'is required',
      '/name': 'must not be empty',
      '/code': 'must be at least 2 characters long',
      '/count': 'must be at most 5',
      '/ratio': 'must be a multiple of 0.25',
      '/tags': 'must not be empty',
      '/kind': 'must be one of A, B',
      '/fixed': 'must be "x"',
      '/mail': 'must be an e-mail address',
      '/at': 'must be a date and time (ISO 8601, e.g. 2026-01-31T12:00:00Z)',
      '/ref': 'is not in the expected format',
      '/flag': 'must be true or false',
      '/maybe': 'must be a string or null',
      '/extra': 'must not be empty',
      '/surprise': 'is not a known field',
    });
  });

  it('bounds and types', () => {
    expect(detailsOf({ id: 1, name: 'abcd', count: 0, ratio: 1, tags: ['a', 'b', 'c'] })).toEqual({
      '/id': 'must be a string',
      '/name': 'must be at most 3 characters long',
      '/count': 'must be at least 1',
      '/ratio': 'must be less than 1',
      '/tags': 'must hold at most 2 items',
    });
    expect(detailsOf({ id: 'x', ratio: 0, tags: ['a', 'a'] })).toEqual({
      '/ratio': 'must be more than 0',
      '/tags': 'must not repeat an item (items 0 and 1 are the same)',
    });
  });
});
