// /_sandbox/report and /_sandbox/webhooks/audit (docs/report.md): the integration report of one tenant,
// and the webhook probe it may run first. Thin: read the tenant's facts (src/http/report-facts.ts),
// judge them (src/domain/report-checks.ts: pure), answer. The probe's sends are made inside the request.
import { SandboxError } from '../domain/errors.js';
import { runChecks } from '../domain/report-checks.js';
import { adminRoute } from '../http/operations.js';
import { reportFacts } from '../http/report-facts.js';
import type { AppContext } from '../context.js';
import { formatWebhookSend } from '../format/webhooks.js';
import type { Wire } from '../schemas/from-schema.js';
import { controlTag, e, INVALID_STATE, ok } from '../schemas/operation.js';
import { auditInputSchema, auditSchema, reportQuerySchema, reportSchema, type AuditInput, type ReportQuery } from '../schemas/report.js';
import { auditEndpoint, auditTenant, type Audit } from '../webhooks/audit.js';
import { accountFor, own } from './scope.js';

const tag = controlTag('diagnostics');

/** The report of one tenant, judged now: its journal as kept, its deliveries and sends, its transactions. */
function buildReport(ctx: AppContext, accountId: string): Wire<typeof reportSchema> {
  const facts = reportFacts(ctx, accountId);
  const now = new Date().toISOString(); // the journal's times are real time (docs/decisions.md#d83-the-reports-clocks)
  const first = facts.exchanges[0];
  return {
    accountId,
    from: first ? new Date(first.atMs).toISOString() : now,
    to: now,
    requests: facts.exchanges.length,
    checks: runChecks(facts),
  };
}

const formatAudit = (a: Audit): Wire<typeof auditSchema> => ({
  endpointId: a.endpointId,
  eventId: a.eventId,
  sends: a.sends.map(formatWebhookSend),
});

export const reportOperations = [
  adminRoute<never, ReportQuery>({
    method: 'get',
    path: '/_sandbox/report',
    tag,
    scope: 'tenant',
    summary: "The integration report: one tenant's behaviour judged check by check (probe=true: its webhook receivers probed first)",
    query: reportQuerySchema,
    responses: {
      200: ok(reportSchema, 'Every check, in a fixed order, with its outcome, evidence and advice'),
      400: e('VALIDATION_ERROR', 'the operator named no accountId'),
      404: e('NOT_FOUND', 'no such account'),
    },
    async handle({ ctx, res, query, tenant }) {
      const accountId = accountFor(tenant, ctx.store, query.accountId);
      if (accountId === undefined)
        throw new SandboxError('VALIDATION_ERROR', 'accountId is required: the report judges one tenant', [
          { path: '/query/accountId', message: 'is required (the tenant to judge)' },
        ]);
      if (query.probe) await auditTenant(ctx, accountId);
      res.json(buildReport(ctx, accountId));
    },
  }),

  adminRoute<AuditInput>({
    method: 'post',
    path: '/_sandbox/webhooks/audit',
    tag: controlTag('webhooks'),
    scope: 'tenant',
    summary:
      'Probe an endpoint: send it a past event of its own with a bad signature, correctly signed but 600 s stale, and as a correctly signed duplicate',
    body: auditInputSchema,
    responses: {
      200: ok(auditSchema, 'The three sends, as the send log keeps them (marked audit)'),
      404: e('NOT_FOUND', 'no such endpoint'),
      409: { ...INVALID_STATE, description: 'the endpoint has been sent no event yet' },
    },
    async handle({ ctx, res, readBody, tenant }) {
      const endpointId = readBody().endpointId.toLowerCase();
      const endpoint = own(tenant, ctx.store.webhookEndpoints.get(endpointId), `webhook endpoint ${endpointId}`);
      res.json(formatAudit(await auditEndpoint(ctx, endpoint)));
    },
  }),
];
