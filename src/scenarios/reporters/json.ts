// The machine-readable report: the whole run as one JSON document (credentials redacted).
import { countOf, type RunResult } from '../result.js';

export function jsonReport(run: RunResult): string {
  return JSON.stringify({ ...run, summary: countOf(run) }, null, 2) + '\n';
}
