// Rules a JSON Schema cannot say (check digits, a PIX key that fits its type, an amount's ceiling),
// run beside a body's schema so that one answer names every problem: the schema's and these. They
// read the body as sent, before the schema has vouched for it, so each looks only at the fields that
// have the shape it needs and leaves the rest to the schema. The domain functions they call are the
// same the services call: a body that passes here passes there.
import { cashInIssues } from '../domain/charges.js';
import { declaredDocumentIssues, documentTypeOf } from '../domain/documents.js';
import type { ErrorDetail } from '../domain/errors.js';
import { normalizeKeyType, validatePixKey } from '../domain/pix-keys.js';
import { cashOutAmountIssues, transferDetailsIssues } from '../domain/transfers.js';
import { webhookUrlProblem } from '../domain/webhook-targets.js';

/** Checks a body beyond its schema; returns every problem found. */
export type BodyCheck = (body: Record<string, unknown>) => ErrorDetail[];

const DOCUMENT = /^[0-9]{11}$|^[0-9]{14}$/;
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const record = (v: unknown): Record<string, unknown> | undefined =>
  v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const documentOf = (v: unknown): string | undefined => (typeof v === 'string' && DOCUMENT.test(v) ? v : undefined);

/** POST /v1/merchants: the document against document_type. */
export const merchantCreateChecks: BodyCheck = (b) => {
  const document = documentOf(b.document);
  const type = b.document_type === 'CPF' || b.document_type === 'CNPJ' ? b.document_type : undefined;
  return document && type ? declaredDocumentIssues(document, type) : [];
};

/** POST /v1/banking/cash-in/pix: the customer's document. */
export const cashInChecks: BodyCheck = (b) => {
  const customer = record(b.customer);
  const document = documentOf(customer?.document);
  return document ? cashInIssues({ customer: { name: text(customer?.name) ?? '', document } }) : [];
};

/** POST /v1/banking/cash-out/pix: the amount's ceiling, the key against its type, the recipient's document. */
export const cashOutChecks: BodyCheck = (b) => {
  const out: ErrorDetail[] = [];
  const amount = text(b.amount);
  if (amount !== undefined && /^[1-9][0-9]*$/.test(amount)) out.push(...cashOutAmountIssues(amount));
  const details = record(b.details) ?? {};
  const key = text(details.key);
  const document = documentOf(details.document);
  const found = transferDetailsIssues({
    name: '',
    key: key ?? '',
    keyType: text(details.keyType) ?? '',
    ...(document ? { document } : {}),
  });
  // the schema itself names a missing or empty key, an unknown key type and a malformed document
  out.push(...found.filter((d) => d.path === '/details/document' || (d.path === '/details/key' && key)));
  return out;
};

/** POST /_sandbox/pix-keys (and each key of a fixture set): the key against its kind, the owner's check digits. */
export const pixKeyChecks: BodyCheck = (b) => {
  const out: ErrorDetail[] = [];
  const keyType = normalizeKeyType(text(b.keyType) ?? '');
  const key = text(b.key);
  const problem = keyType && key ? validatePixKey(keyType, key) : null;
  if (problem) out.push({ path: '/key', message: problem.replace(/^key /, '') });
  const document = documentOf(record(b.owner)?.document);
  if (document && !documentTypeOf(document))
    out.push({ path: '/owner/document', message: 'must be a CPF or CNPJ with valid check digits' });
  return out;
};

/** POST /_sandbox/rules (and each rule of a fixture set): a range that is one, a fail outcome's code. */
export const ruleChecks: BodyCheck = (b) => {
  const out: ErrorDetail[] = [];
  const match = record(b.match) ?? {};
  const outcome = record(b.outcome) ?? {};
  const { amountMin: min, amountMax: max } = match;
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    out.push({ path: '/match/amountMin', message: 'must not exceed amountMax' });
  if (outcome.action === 'fail' && outcome.code === undefined)
    out.push({ path: '/outcome/code', message: 'is required when action is fail' });
  return out;
};

/** POST /_sandbox/webhooks (and each endpoint of a fixture set): the one URL rule of every way an endpoint is made. */
export const webhookEndpointChecks: BodyCheck = (b) => {
  const url = text(b.url);
  const problem = url === undefined ? null : webhookUrlProblem(url);
  return problem ? [{ path: '/url', message: problem }] : [];
};
