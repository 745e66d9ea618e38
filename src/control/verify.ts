// /_sandbox/verify and /_sandbox/verify/sequence (docs/control-api.md#verifying-requests): whether the app
// sent what a test expects, judged on the request journal as it shows it (secrets redacted), one
// tenant's (a tenant's token: its own) or every tenant's. Each evaluation reads the rings newest first
// once (the matching itself: src/domain/request-match.ts); a failure reads them once more for its near
// misses. `within` waits for the condition to hold, looking again when the journal changes
// (docs/decisions.md#d78-verifying-requests).
import type { Request, Response } from 'express';
import type { AppContext } from '../context.js';
import {
  compileMatcher,
  describeMatcher,
  nearestMisses,
  requestMatches,
  type CompiledMatcher,
  type EachRequest,
  type NearMiss,
  type RequestMatcher,
} from '../domain/request-match.js';
import type { Wire } from '../schemas/from-schema.js';
import { adminRoute } from '../http/operations.js';
import { controlTag, e, ok } from '../schemas/operation.js';
import {
  verificationFailedSchema,
  verificationSchema,
  verifyChecks,
  verifySchema,
  verifySequenceChecks,
  verifySequenceSchema,
  type VerifyBody,
  type VerifySequenceBody,
} from '../schemas/verify.js';
import { accountFor } from './scope.js';

type Verification = Wire<typeof verificationSchema>;
type VerificationFailed = Wire<typeof verificationFailedSchema>;

/** The `seq`s an answer lists at most (newest first); `count` is always the whole. */
const MAX_LISTED = 1000;

/** What one evaluation found: it holds (the answer), or how it fails (its message and the near misses, found only then). */
type Outcome = { holds: true; answer: Verification } | { holds: false; message: string; count: number; misses: () => NearMiss[] };

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

function wanted(atLeast: number, atMost: number | undefined): string {
  if (atMost === undefined) return `at least ${atLeast}`;
  if (atLeast === atMost) return `exactly ${atLeast}`;
  return atLeast === 0 ? `at most ${atMost}` : `${atLeast} to ${atMost}`;
}

/** POST /_sandbox/verify, evaluated once over the journal of `accountId` (undefined: every tenant's). */
function evaluateCount(ctx: AppContext, accountId: string | undefined, body: VerifyBody): Outcome {
  const m = compileMatcher(body);
  const { atLeast = 0, atMost } = body.times ?? { atLeast: 1 };
  const seqs: number[] = [];
  // the bodies parsed by this read, for a failure's second (its near misses): each parsed once
  const bodies = new Map<number, unknown>();
  ctx.journal.eachSeen(accountId, (r) => void (requestMatches(m, r) && seqs.push(r.seq)), bodies);
  const count = seqs.length;
  // each ring is read newest first; several (every tenant's) are put in one order here
  const matches = (seqs.length > MAX_LISTED || accountId === undefined ? seqs.sort((a, b) => b - a) : seqs).slice(0, MAX_LISTED);
  if (count >= atLeast && (atMost === undefined || count <= atMost)) return { holds: true, answer: { ok: true, count, matches } };
  return {
    holds: false,
    message: `expected ${wanted(atLeast, atMost)} ${atMost === 1 || (atMost === undefined && atLeast === 1) ? 'request' : 'requests'} matching ${describeMatcher(body)}, found ${count}`,
    count,
    // too many: the matching ones are no misses
    misses: () => (count < atLeast ? nearestMisses(m, (visit) => ctx.journal.eachSeen(accountId, visit, bodies)) : []),
  };
}

/** The journal's requests newer than `seq`. */
const after =
  (ctx: AppContext, accountId: string | undefined, seq: number, bodies: Map<number, unknown>): EachRequest =>
  (visit) =>
    // newest first within a ring: the rest of it is older
    ctx.journal.eachSeen(accountId, (r) => (r.seq > seq ? visit(r) : accountId === undefined), bodies);

/** POST /_sandbox/verify/sequence: each item matched after the one before (the earliest such request), in one read. */
function evaluateSequence(ctx: AppContext, accountId: string | undefined, body: VerifySequenceBody): Outcome {
  const items = body.requests as RequestMatcher[];
  const ms: CompiledMatcher[] = items.map(compileMatcher);
  // per item, the seqs of the requests it matches, newest first
  const lists: number[][] = ms.map(() => []);
  const bodies = new Map<number, unknown>();
  ctx.journal.eachSeen(accountId, (r) => ms.forEach((m, i) => requestMatches(m, r) && lists[i]!.push(r.seq)), bodies);
  if (accountId === undefined) for (const list of lists) list.sort((a, b) => b - a);
  const found: number[] = [];
  for (let i = 0; i < ms.length; i++) {
    const prev = found[i - 1] ?? 0;
    const list = lists[i]!;
    let k = list.length - 1;
    while (k >= 0 && list[k]! <= prev) k--;
    if (k < 0) {
      const where = i === 0 ? '' : ` after seq ${prev} (where request ${i} matched)`;
      return {
        holds: false,
        message: `request ${i + 1} of ${plural(ms.length, 'request')} in the sequence (${describeMatcher(items[i]!)}) was not found${where}`,
        count: i,
        misses: () => nearestMisses(ms[i]!, after(ctx, accountId, prev, bodies)),
      };
    }
    found.push(list[k]!);
  }
  return { holds: true, answer: { ok: true, count: found.length, matches: found } };
}

/**
 * Evaluates now and, when it does not hold and `withinS` allows, again after each change of the journal
 * (of the tenant, or any), at most once per turn of the event loop, until it holds, the time is up, or
 * the client goes away.
 */
function settle(ctx: AppContext, accountId: string | undefined, withinS: number, res: Response, evaluate: () => Outcome): Promise<Outcome> {
  const first = evaluate();
  if (first.holds || withinS <= 0) return Promise.resolve(first);
  return new Promise((resolve) => {
    let last: Outcome = first;
    let pending: NodeJS.Immediate | null = null;
    const done = () => {
      clearTimeout(timer);
      if (pending) clearImmediate(pending);
      stop();
      res.off('close', done);
      resolve(last);
    };
    const timer = setTimeout(done, withinS * 1000);
    const stop = ctx.journal.onChange((changed) => {
      if (pending || (accountId !== undefined && changed !== undefined && changed !== accountId)) return;
      pending = setImmediate(() => {
        pending = null;
        last = evaluate();
        if (last.holds) done();
      });
    });
    res.on('close', done);
  });
}

async function answer(
  ctx: AppContext,
  req: Request,
  res: Response,
  accountId: string | undefined,
  withinS: number,
  evaluate: () => Outcome,
) {
  const outcome = await settle(ctx, accountId, withinS, res, evaluate);
  if (req.destroyed && !res.writable) return; // the client went away while it waited
  if (outcome.holds) return void res.json(outcome.answer);
  const waited = withinS > 0 ? ` (waited ${withinS} s)` : '';
  const failed: VerificationFailed = {
    statusCode: 422,
    message: `${outcome.message}${waited}`,
    error: {
      code: 'VERIFICATION_FAILED',
      details: [],
      count: outcome.count,
      nearMisses: outcome.misses().map(({ agree: _agree, ...miss }) => miss),
    },
  };
  res.status(422).json(failed);
}

const tag = controlTag('diagnostics');
const NO_ACCOUNT = e('NOT_FOUND', 'no such account');
const FAILED = {
  schema: verificationFailedSchema,
  description: 'VERIFICATION_FAILED: it does not hold (within the time given); the count found and up to 5 near misses',
};

export const verifyOperations = [
  adminRoute<VerifyBody>({
    method: 'post',
    path: '/_sandbox/verify',
    tag,
    scope: 'tenant',
    summary:
      'Verify that the app sent matching requests (a count, and optionally a wait): 200 when it holds, 422 with near misses when not',
    body: verifySchema,
    check: verifyChecks,
    responses: { 200: ok(verificationSchema), 404: NO_ACCOUNT, 422: FAILED },
    async handle({ ctx, req, res, readBody, tenant }) {
      const body = readBody();
      const accountId = accountFor(tenant, ctx.store, body.accountId);
      await answer(ctx, req, res, accountId, body.within, () => evaluateCount(ctx, accountId, body));
    },
  }),

  adminRoute<VerifySequenceBody>({
    method: 'post',
    path: '/_sandbox/verify/sequence',
    tag,
    scope: 'tenant',
    summary:
      'Verify that the app sent requests matching each item in this order (others may come between): 200, or 422 naming the item not found',
    body: verifySequenceSchema,
    check: verifySequenceChecks,
    responses: { 200: ok(verificationSchema), 404: NO_ACCOUNT, 422: FAILED },
    async handle({ ctx, req, res, readBody, tenant }) {
      const body = readBody();
      const accountId = accountFor(tenant, ctx.store, body.accountId);
      await answer(ctx, req, res, accountId, body.within, () => evaluateSequence(ctx, accountId, body));
    },
  }),
];
