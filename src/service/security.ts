// What a scan's result does to a publication: credentials of the publisher's own refuse it (400, naming the
// file, line and kind, never the value; nothing is stored); a `malicious` verdict holds what is published at
// once, through the same decision a moderator's hold is (by the scanner, in the public log when public).
import { badRequest } from '../domain/errors.js';
import type { Security } from '../domain/model.js';
import type { ScanResult } from '../scan/index.js';
import type { NewDecision } from '../store/store.js';
import type { Context } from './context.js';

/** Refuses a publication that carries credentials. */
export function refuseSecrets(result: ScanResult): void {
  if (result.secrets.length === 0) return;
  const named = result.secrets.slice(0, 5).map((s) => `${s.file} line ${s.line} (${s.kind})`);
  const more = result.secrets.length > 5 ? ` and ${result.secrets.length - 5} more` : '';
  throw badRequest(
    `credentials must not be published: ${named.join(', ')}${more}; remove them, and revoke them where they were issued (they may have been exposed)`,
  );
}

/** The verdict as it is kept and shown. */
export const securityOf = (result: ScanResult, at: string): Security => ({
  verdict: result.verdict,
  scanner: result.scanner,
  scanned_at: at,
  findings: result.findings,
});

/** The scanner's hold of a malicious version or unit; null for any other verdict. */
export function scannerHold(
  ctx: Pick<Context, 'ids'>,
  security: Security,
  target: { kind: 'skill' | 'unit'; id: string; version: string | null; public: boolean },
  at: string,
): NewDecision | null {
  if (security.verdict !== 'malicious') return null;
  const critical = security.findings.filter((f) => f.severity === 'critical');
  const note = critical
    .slice(0, 5)
    .map((f) => `${f.rule} at ${f.file}:${f.line}`)
    .join('; ');
  return {
    id: ctx.ids.decisionId(),
    target: { kind: target.kind, id: target.id },
    version: target.version,
    action: 'hold',
    // The family of the first critical finding: a reason code like a moderator's (`malware`, `reverse-shell`).
    reason: critical[0]?.rule.split('/')[0] ?? 'malicious',
    note: note.slice(0, 2000),
    by: 'scanner',
    moderator: null,
    at,
    public: target.public,
    reportIds: [],
  };
}
