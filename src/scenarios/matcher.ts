// The body matcher of scenario files. An expectation is plain data:
// - a string, number, boolean or null must equal the actual value;
// - an object matches partially: every key given must match, other keys are ignored;
// - an array must have the same length, element by element;
// - an object whose keys all start with `$` is an operator set, every operator must hold:
//   $type, $regex, $present, $length, $gt/$gte/$lt/$lte, $contains, $eq (a literal, taken as is).
// It answers every mismatch with its JSON Pointer, so a report can show expected versus actual.

export interface Mismatch {
  /** JSON Pointer into the actual value (prefixed by the caller, e.g. /body) */
  path: string;
  expected: unknown;
  actual: unknown;
  message: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An operator set: a non-empty object whose keys all start with `$`. */
function isOperatorSet(v: unknown): v is Record<string, unknown> {
  if (!isPlainObject(v)) return false;
  const keys = Object.keys(v);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

const escapePointer = (key: string): string => key.replace(/~/g, '~0').replace(/\//g, '~1');

function typeOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function hasType(v: unknown, t: string): boolean {
  switch (t) {
    case 'integer':
      return Number.isInteger(v);
    case 'uuid':
      return typeof v === 'string' && UUID.test(v);
    case 'date-time':
      return typeof v === 'string' && DATE_TIME.test(v) && !Number.isNaN(Date.parse(v));
    default:
      return typeOf(v) === t;
  }
}

/** Matches `actual` against `expected`; an empty list means it matches. `present` is false for an absent key. */
export function match(expected: unknown, actual: unknown, path = '', present = true): Mismatch[] {
  if (isOperatorSet(expected)) return matchOperators(expected, actual, path, present);
  if (!present) return [{ path, expected, actual: undefined, message: 'is absent' }];
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return [{ path, expected, actual, message: `expected an array, got ${typeOf(actual)}` }];
    if (actual.length !== expected.length)
      return [{ path, expected, actual, message: `expected ${expected.length} item(s), got ${actual.length}` }];
    return expected.flatMap((e, i) => match(e, actual[i], `${path}/${i}`));
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) return [{ path, expected, actual, message: `expected an object, got ${typeOf(actual)}` }];
    return Object.entries(expected).flatMap(([k, e]) => match(e, actual[k], `${path}/${escapePointer(k)}`, Object.hasOwn(actual, k) && actual[k] !== undefined));
  }
  if (actual === expected) return [];
  return [{ path, expected, actual, message: `expected ${JSON.stringify(expected)}, got ${actual === undefined ? 'nothing' : JSON.stringify(actual)}` }];
}

function matchOperators(ops: Record<string, unknown>, actual: unknown, path: string, present: boolean): Mismatch[] {
  const out: Mismatch[] = [];
  const fail = (expected: unknown, message: string) => out.push({ path, expected, actual, message });
  if ('$present' in ops) {
    if (ops.$present === false) return present ? [{ path, expected: ops, actual, message: 'should be absent' }] : [];
    if (!present) return [{ path, expected: ops, actual: undefined, message: 'is absent' }];
  } else if (!present) {
    return [{ path, expected: ops, actual: undefined, message: 'is absent' }];
  }
  for (const [op, arg] of Object.entries(ops)) {
    switch (op) {
      case '$present':
        break;
      case '$eq':
        if (JSON.stringify(actual) !== JSON.stringify(arg)) fail(arg, `expected exactly ${JSON.stringify(arg)}`);
        break;
      case '$type': {
        const types = Array.isArray(arg) ? (arg as string[]) : [String(arg)];
        if (!types.some((t) => hasType(actual, t))) fail({ $type: arg }, `expected ${types.join(' or ')}, got ${typeOf(actual)}`);
        break;
      }
      case '$regex': {
        let re: RegExp;
        try {
          re = new RegExp(String(arg));
        } catch {
          fail({ $regex: arg }, `invalid regular expression ${String(arg)}`);
          break;
        }
        if (typeof actual !== 'string' && typeof actual !== 'number') fail({ $regex: arg }, `expected a string matching /${String(arg)}/, got ${typeOf(actual)}`);
        else if (!re.test(String(actual))) fail({ $regex: arg }, `does not match /${String(arg)}/`);
        break;
      }
      case '$length': {
        const len = typeof actual === 'string' || Array.isArray(actual) ? actual.length : undefined;
        if (len === undefined) fail({ $length: arg }, `expected a string or array, got ${typeOf(actual)}`);
        else out.push(...match(arg, len, path).map((m) => ({ ...m, expected: { $length: arg }, actual, message: `length ${len}: ${m.message}` })));
        break;
      }
      case '$gt':
      case '$gte':
      case '$lt':
      case '$lte': {
        const n = actual as number;
        const limit = Number(arg);
        const ok = typeof actual === 'number' && (op === '$gt' ? n > limit : op === '$gte' ? n >= limit : op === '$lt' ? n < limit : n <= limit);
        if (!ok) fail({ [op]: arg }, `expected a number ${op.slice(1).replace('gte', '>=').replace('lte', '<=').replace('gt', '>').replace('lt', '<')} ${limit}`);
        break;
      }
      case '$contains': {
        if (!Array.isArray(actual)) {
          fail({ $contains: arg }, `expected an array, got ${typeOf(actual)}`);
          break;
        }
        // every expected element must match a distinct actual element
        const used = new Set<number>();
        for (const [i, want] of (Array.isArray(arg) ? arg : [arg]).entries()) {
          const at = actual.findIndex((a, j) => !used.has(j) && match(want, a).length === 0);
          if (at < 0) out.push({ path, expected: want, actual, message: `no item matches expected element ${i}` });
          else used.add(at);
        }
        break;
      }
      default:
        fail(ops, `unknown matcher operator ${op}`);
    }
  }
  return out;
}
