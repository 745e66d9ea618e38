// The query of GET /_sandbox/changes, the change stream (docs/control-api.md#the-change-stream).
import { CHANGE_TOPICS } from '../domain/vocabulary.js';
import type { Validated } from './from-schema.js';
import { uuidParam } from './helpers.js';

const topic = `(${CHANGE_TOPICS.join('|')})`;

export const changesQuerySchema = {
  type: 'object',
  properties: {
    topics: {
      type: 'string',
      pattern: `^${topic}(,${topic})*$`,
      'x-message': `must be topics separated by commas, each one of ${CHANGE_TOPICS.join(', ')}`,
      description: 'The topics to hear, separated by commas; absent: every topic',
    },
    accountId: { ...uuidParam, description: "Only this account's changes of the topics of one tenant's records" },
  },
} as const;
export type ChangesQuery = Validated<typeof changesQuerySchema>;
