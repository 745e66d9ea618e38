// Paging of the control lists that can grow (docs/store.md): `limit`, and `after`, the cursor the
// previous page answered in its x-sandbox-next-cursor header (and its Link header, rel="next").
// The body stays the bare JSON array the control API has always answered.
import type { Answer } from './operation.js';
import type { JsonSchema } from './helpers.js';
import type { Validated } from './from-schema.js';

export const NEXT_CURSOR_HEADER = 'x-sandbox-next-cursor';

export const cursorParam = {
  type: 'integer',
  minimum: 0,
  maximum: 4_294_967_295,
  'x-message': 'must be the x-sandbox-next-cursor of a previous page',
} as const;

export const pageLimit = (byDefault: number) =>
  ({ type: 'integer', minimum: 1, maximum: 1000, default: byDefault, 'x-message': 'must be an integer from 1 to 1000' }) as const;

/** Lists that are usually short (accounts, PIX keys, ...): one page of up to 1,000 unless asked otherwise. */
export const pageQuerySchema = { type: 'object', properties: { limit: pageLimit(1000), after: cursorParam } } as const;
export type PageQuery = Validated<typeof pageQuerySchema>;

/** The answer of a list that pages: one page, and where the next one starts. */
export const paged = (items: JsonSchema, description = "One page, in the list's order"): Answer => ({
  schema: { type: 'array', items },
  description,
  headers: {
    [NEXT_CURSOR_HEADER]: {
      description: 'Present when more may follow: pass it as `after` for the next page (absent on the last page)',
      required: false,
      schema: { type: 'integer', minimum: 0 },
    },
    Link: { description: 'The next page\'s URL, rel="next" (RFC 8288), when there is one', required: false, schema: { type: 'string' } },
  },
});
