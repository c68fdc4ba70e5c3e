// What the engines report: a finding with its severity, file, line and excerpt, and the verdict the
// findings make. Excerpts are cut to 200 characters, control characters escaped (\u001b), and the token
// part of webhook addresses blanked, so a finding never carries a credential.
export type Severity = 'low' | 'medium' | 'high' | 'critical';
export type Verdict = 'clean' | 'suspicious' | 'malicious';

export interface Finding {
  rule: string;
  severity: Severity;
  file: string;
  line: number;
  message: string;
  excerpt: string;
}

export const RANK: Record<Severity, number> = { low: 0, medium: 1, high: 2, critical: 3 };

export const atMost = (severity: Severity, cap: Severity): Severity => (RANK[severity] > RANK[cap] ? cap : severity);

/** `malicious` with a critical finding, `suspicious` with a high or medium one, else `clean`. */
export function verdictOf(findings: readonly Finding[]): Verdict {
  let worst = -1;
  for (const f of findings) worst = Math.max(worst, RANK[f.severity]);
  return worst >= RANK.critical ? 'malicious' : worst >= RANK.medium ? 'suspicious' : 'clean';
}

const EXCERPT_MAX = 200;

const escapeControl = (text: string): string =>
  text
    .replace(
      /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    .replace(/[\u{e0000}-\u{e007f}]/gu, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`);

const redact = (text: string): string =>
  text
    .replace(/(webhooks\/\d+\/)[\w-]+/gi, '$1…')
    .replace(/(api\.telegram\.org\/bot)[\w:-]+/gi, '$1…')
    .replace(/(hooks\.slack\.com\/services\/)[\w/]+/gi, '$1…');

/** At most 200 characters of a line around `column`, control characters escaped. */
export function excerptOf(line: string, column = 0): string {
  const text = redact(line.replace(/\t/g, ' '));
  const trimmed = text.trim();
  const offset = Math.max(0, column - (text.length - text.trimStart().length));
  let cut = trimmed;
  if (cut.length > EXCERPT_MAX) {
    const start = Math.max(0, Math.min(offset - 40, cut.length - EXCERPT_MAX));
    cut = cut.slice(start, start + EXCERPT_MAX);
  }
  let out = escapeControl(cut);
  while (out.length > EXCERPT_MAX) {
    cut = cut.slice(0, -Math.max(1, out.length - EXCERPT_MAX));
    out = escapeControl(cut);
  }
  return out;
}
