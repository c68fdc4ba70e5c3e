// Credentials of the publisher's own, found with secretlint's recommended rule set (a maintained set of
// credential formats: cloud keys, tokens of well-known services, private key blocks). Documentation
// placeholders are not credentials. Only the kind and the place are reported, never the value.
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { creator as recommended } from '@secretlint/secretlint-rule-preset-recommend';

export interface SecretHit {
  file: string;
  line: number;
  /** What kind of credential, in words (`AWS Secret Access Key`, `GitHub Token`). */
  kind: string;
}

// secretlint's profiler keeps every performance mark of every run and searches them on each new one: in a
// process that lints for ever, memory and time grow without bound. The registry does not profile it.
secretLintProfiler.mark = () => {};

const CONFIG = { rules: [{ id: '@secretlint/secretlint-rule-preset-recommend', rule: recommended }] };

/** What documentation writes instead of a credential. */
const PLACEHOLDER =
  /example|sample|dummy|placeholder|redacted|your[-_ ]?(own[-_ ]?)?(api[-_ ]?)?(key|token|secret)|<[^>\n]*>|\.\.\.|x{6,}|\*{4,}|0{12,}|1234567890|abcdef(ghij)?|fake|test[-_]?(key|token)/i;

/** A connection string's password that documentation uses (`postgres://user:password@localhost/db`). */
const SAMPLE_LOGIN =
  /:\/\/[^:/\s]*:(password|passw0rd|pass|pwd|secret|changeme|postgres|mysql|root|admin|user|test|example|dbpass|mypassword|yourpassword|your_password|\$\{?\w+\}?|%\(\w+\)s|\{\w+\})@|@(localhost|127\.0\.0\.1|0\.0\.0\.0|db|postgres|mysql|host|hostname|your[-_]?host)[:/]/i;

function kindOf(message: string, ruleId: string): string {
  const m = /^found ([^:(]+)/i.exec(message);
  return (m?.[1] ?? ruleId.replace(/^@secretlint\/secretlint-rule-/, '')).trim();
}

/**
 * A private key block with a body, whatever its format says of itself: the contract names this kind, and
 * secretlint's own rule wants a well-formed key.
 */
const PRIVATE_KEY =
  /-----BEGIN ((?:RSA |EC |DSA |OPENSSH |ENCRYPTED |PGP )?PRIVATE KEY(?: BLOCK)?)-----\r?\n(?:[A-Za-z0-9+/=:, -]*\r?\n){0,3}[A-Za-z0-9+/=]{40,}/g;

/** The credentials in one text, by line. */
export async function findSecrets(file: string, content: string): Promise<SecretHit[]> {
  if (content.length === 0) return [];
  const result = await lintSource({
    source: { filePath: `/${file}`, content, contentType: 'text' },
    options: { config: CONFIG, maskSecrets: true },
  });
  const hits: SecretHit[] = [];
  for (const m of content.matchAll(PRIVATE_KEY)) {
    const line = content.slice(0, m.index).split('\n').length;
    hits.push({
      file,
      line,
      kind: m[1]!
        .replace(/^(\w+) PRIVATE/, '$1 private')
        .replace(/^PRIVATE/, 'Private')
        .replace('KEY', 'key'),
    });
  }
  for (const m of result.messages) {
    if (m.ruleId.endsWith('privatekey') && hits.some((h) => h.line === m.loc.start.line)) continue;
    const [start, end] = m.range;
    const matched = content.slice(Math.max(0, start - 2), end + 2);
    if (PLACEHOLDER.test(matched) || SAMPLE_LOGIN.test(matched)) continue;
    hits.push({ file, line: m.loc.start.line, kind: kindOf(m.message, m.ruleId) });
  }
  return hits;
}
