// JSON Schemas of the integration report (docs/report.md): GET /_sandbox/report's query and answer, and
// the webhook probe's (POST /_sandbox/webhooks/audit).
import { REPORT_CHECKS, REPORT_OUTCOMES } from '../domain/vocabulary.js';
import type { Validated } from './from-schema.js';
import { scopeAccountId } from './control.js';
import { arrayOf, int, obj, oneOfWords, str, time, uuid, uuidParam } from './helpers.js';
import { webhookSendSchema } from './webhook-responses.js';

export const reportQuerySchema = {
  type: 'object',
  properties: {
    accountId: { ...scopeAccountId, description: "the tenant judged (with a tenant's token: its own); the operator must name one" },
    probe: {
      type: 'boolean',
      default: false,
      description: "true: probe the tenant's webhook receivers first (docs/report.md#webhook-signature)",
    },
  },
} as const;
export type ReportQuery = Validated<typeof reportQuerySchema>;

const reportCheckSchema = obj({
  id: oneOfWords(REPORT_CHECKS),
  title: str,
  outcome: oneOfWords(REPORT_OUTCOMES),
  count: { type: 'integer', minimum: 0, description: 'what the check counted (docs/report.md names it per check)' },
  evidence: {
    type: 'array',
    items: { type: ['integer', 'string'] },
    description: 'journal seqs (numbers), delivery or send ids (strings) behind the outcome',
  },
  advice: { type: 'string', description: 'one sentence: what to change, or how to exercise the check' },
  docs: { type: 'string', description: "a link into the repository's docs" },
  detail: { type: 'string', description: 'one sentence of specifics (codes counted, modes not met); may be empty' },
});

export const reportSchema = obj({
  accountId: uuid,
  from: { ...time, description: "the oldest journal entry judged (real time); the report's time when there is none" },
  to: { ...time, description: "the report's time (real time)" },
  requests: { ...int, description: 'journal entries judged' },
  checks: arrayOf(reportCheckSchema),
});

export const auditInputSchema = { type: 'object', required: ['endpointId'], properties: { endpointId: uuidParam } } as const;
export type AuditInput = Validated<typeof auditInputSchema>;

export const auditSchema = obj({
  endpointId: uuid,
  eventId: { ...str, description: 'the past event sent (the newest the endpoint was delivered)' },
  sends: { ...arrayOf(webhookSendSchema), description: 'bad, stale, then the correctly signed duplicate, as logged' },
});
