// One entry of the request journal as GET /_sandbox/requests shows it: the type of its schema. Kept
// apart from the journal itself (an express middleware) so the entry's type needs no express types.
import type { Wire } from '../schemas/from-schema.js';
import type { journalEntrySchema } from '../schemas/control-responses.js';

export type JournalEntry = Wire<typeof journalEntrySchema>;
