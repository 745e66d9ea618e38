// `${...}` interpolation of scenario steps. A reference is a dotted path into the scope:
// saved results (`${create.body.transactionId}`, `${list.body.data.0.merchantId}`), `vars`,
// `account`, `scenario`, and generators (`${$uuid}`, `${$cpf}`, `${$cnpj}`, `${$email}`,
// `${$digits.8}`) that yield a fresh value each time. A string that is exactly one reference keeps the
// referenced value's type (a number stays a number); elsewhere the value is spliced in as text.
// `$${` writes a literal `${`.
import { randomInt, randomUUID } from 'node:crypto';
import { generateCnpj, generateCpf } from '../domain/documents.js';

export class InterpolationError extends Error {}

const REF = /\$\{([^}]*)\}/g;
const WHOLE = /^\$\{([^}]*)\}$/;
const random = (): number => randomInt(0, 1_000_000) / 1_000_000;

function generate(name: string, arg: string | undefined): unknown {
  switch (name) {
    case '$uuid':
      return randomUUID();
    case '$cpf':
      return generateCpf(random);
    case '$cnpj':
      return generateCnpj(random);
    case '$email':
      return `user-${randomUUID().slice(0, 8)}@example.com`;
    case '$digits': {
      const n = Number(arg ?? 8);
      if (!Number.isInteger(n) || n < 1 || n > 64) throw new InterpolationError(`\${$digits.N} takes N from 1 to 64 (got ${arg})`);
      return Array.from({ length: n }, (_, i) => randomInt(i === 0 ? 1 : 0, 10)).join('');
    }
    default:
      throw new InterpolationError(`unknown generator \${${name}} (known: $uuid, $cpf, $cnpj, $email, $digits.N)`);
  }
}

/** Resolves one reference (`a.b.0.c`) in the scope. */
export function resolve(expr: string, scope: Record<string, unknown>): unknown {
  const parts = expr.trim().split('.');
  const head = parts[0] ?? '';
  if (head.startsWith('$')) return generate(head, parts[1]);
  if (!head) throw new InterpolationError('empty reference ${}');
  let cur: unknown = scope;
  const walked: string[] = [];
  for (const p of parts) {
    if (cur === null || typeof cur !== 'object' || !Object.hasOwn(cur, p)) {
      const where = walked.length ? `\${${walked.join('.')}}` : 'the scenario';
      const known = cur !== null && typeof cur === 'object' ? Object.keys(cur).slice(0, 12).join(', ') : typeof cur;
      throw new InterpolationError(`\${${expr}}: ${where} has no "${p}" (it has: ${known || 'nothing'})`);
    }
    cur = (cur as Record<string, unknown>)[p];
    walked.push(p);
  }
  return cur;
}

function text(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  // eslint-disable-next-line @typescript-eslint/no-base-to-string -- a scalar read from JSON
  return typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v);
}

export function interpolateString(s: string, scope: Record<string, unknown>): unknown {
  if (!s.includes('${')) return s;
  const whole = WHOLE.exec(s);
  if (whole && !s.startsWith('$${')) return resolve(whole[1]!, scope);
  // protect escaped `$${` before substituting
  const parts = s.split('$${');
  return parts.map((part) => part.replace(REF, (_m, expr: string) => text(resolve(expr, scope)))).join('${');
}

/** Interpolates every string (object keys excluded) of a JSON-like value, returning a copy. */
export function interpolate<T>(value: T, scope: Record<string, unknown>): T {
  if (typeof value === 'string') return interpolateString(value, scope) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => interpolate(v, scope)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolate(v, scope);
    return out as T;
  }
  return value;
}
