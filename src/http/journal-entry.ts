// One entry of the request journal as GET /_sandbox/requests shows it. Kept apart from the journal
// itself (an express middleware) because the typed control client exposes it: a consumer of the
// package's types must not need express's types to type-check (skipLibCheck: false).
export interface JournalEntry {
  seq: number;
  /** sandbox time when the request arrived */
  at: string;
  method: string;
  path: string;
  status: number;
  durationMs: number;
  requestId: string;
  requestHeaders: Record<string, unknown>;
  requestBody: unknown;
  responseBody: unknown;
}
