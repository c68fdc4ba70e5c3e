// Reads the search-eval corpus and queries for the lab. A small tolerant SKILL.md reader turns each file
// into the fields the registry keeps; files without a frontmatter name and description are skipped, as
// the registry refuses them.
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { createHash } from 'node:crypto';
import { createInterface } from 'node:readline';
import { createGunzip } from 'node:zlib';
import { parseDocument } from 'yaml';

export interface LabSkill {
  doc: string;
  /** run.mjs's notion of the name, normalized: what decides a hit. */
  hitName: string;
  name: string;
  description: string;
  tags: string[];
  domain: string | null;
  body: string;
}

export interface LabQuery {
  doc: string;
  keyword: string;
  task: string;
  half: 'a' | 'b';
}

/** Exactly run.mjs's `norm` and `nameOf`. */
export const norm = (s: string): string =>
  String(s ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '');
export function runNameOf(md: string): string {
  const fm = /^\uFEFF?---\r?\n([\s\S]*?)\r?\n---/.exec(md)?.[1] ?? '';
  return /^name:\s*["']?([^"'\r\n]+)/m.exec(fm)?.[1]?.trim() ?? '';
}

const asText = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);

function asList(v: unknown): string[] {
  if (Array.isArray(v))
    return v
      .map(asText)
      .filter((x): x is string => !!x && x.trim() !== '')
      .map((x) => x.trim());
  const s = asText(v);
  return s
    ? s
        .split(',')
        .map((x) => x.trim())
        .filter(Boolean)
    : [];
}

/** Line-based fallback for frontmatter that is not valid YAML: `key: value` plus indented continuations. */
function looseFields(fm: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  let key: string | null = null;
  let lines: string[] = [];
  const flush = () => {
    if (key !== null && !(key in out)) {
      let v = lines.join(' ').replace(/\s+/g, ' ').trim();
      if (/^[>|][+-]?$/.test(v.split(' ')[0] ?? '')) v = v.replace(/^[>|][+-]?\s*/, '');
      v = v.replace(/^(["'])([\s\S]*)\1$/, '$2');
      out[key] = v;
    }
    key = null;
    lines = [];
  };
  for (const line of fm.split('\n')) {
    const m = /^([A-Za-z_][\w-]*):\s?(.*)$/.exec(line);
    if (m) {
      flush();
      key = m[1]!;
      lines = [m[2]!];
    } else if (key !== null && /^\s/.test(line)) lines.push(line.trim());
  }
  flush();
  return out;
}

export function readSkillMd(doc: string, md: string): LabSkill | null {
  const text = md.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n');
  const open = /^---[ \t]*\n/.exec(text);
  if (!open) return null;
  const rest = text.slice(open[0].length);
  const close = /^---[ \t]*$/m.exec(rest);
  if (!close) return null;
  const fmText = rest.slice(0, close.index);
  const after = rest.slice(close.index + close[0].length);
  const body = after.startsWith('\n') ? after.slice(1) : after;
  let fm: Record<string, unknown> | null = null;
  try {
    const d = parseDocument(fmText, { logLevel: 'silent' });
    const y = d.errors.length === 0 ? (d.toJS({ maxAliasCount: 50 }) as unknown) : null;
    if (y && typeof y === 'object' && !Array.isArray(y)) fm = y as Record<string, unknown>;
  } catch {
    fm = null;
  }
  const usable = (v: unknown) => (asText(v)?.trim() ?? '') !== '';
  if (!fm || !usable(fm.name) || !usable(fm.description)) {
    const loose = looseFields(fmText);
    fm = { ...(fm ?? {}) };
    if (!usable(fm.name)) fm.name = loose.name;
    if (!usable(fm.description)) fm.description = loose.description;
  }
  const name = asText(fm.name)?.trim() ?? '';
  const description = asText(fm.description)?.trim() ?? '';
  if (!name || !description) return null;
  const meta =
    fm.metadata && typeof fm.metadata === 'object' && !Array.isArray(fm.metadata)
      ? (fm.metadata as Record<string, unknown>)
      : {};
  const tags = asList(fm.tags ?? meta.tags).slice(0, 20);
  const domain = asText(fm.domain ?? meta.domain);
  return {
    doc,
    hitName: norm(runNameOf(md)),
    name,
    description: description.slice(0, 4096),
    tags,
    domain: domain?.trim() || null,
    body,
  };
}

export interface LabCorpus {
  skills: LabSkill[];
  refused: number;
  /** Every doc of the corpus (refused ones too) → run.mjs normalized name; decides hits. */
  docName: Map<string, string>;
  nameDocs: Map<string, string[]>;
}

export async function loadCorpus(file: string, limit = Infinity): Promise<LabCorpus> {
  const skills: LabSkill[] = [];
  const docName = new Map<string, string>();
  const nameDocs = new Map<string, string[]>();
  let refused = 0;
  const input = createReadStream(file).pipe(createGunzip());
  for await (const line of createInterface({ input, crlfDelay: Infinity })) {
    if (!line.trim()) continue;
    const r = JSON.parse(line) as { doc: string; skill_md_content: string };
    const n = norm(runNameOf(r.skill_md_content));
    docName.set(r.doc, n);
    if (n) nameDocs.set(n, [...(nameDocs.get(n) ?? []), r.doc]);
    const s = readSkillMd(r.doc, r.skill_md_content);
    if (s) skills.push(s);
    else refused++;
    if (skills.length >= limit) break;
  }
  return { skills, refused, docName, nameDocs };
}

/** Fixed halves: by the first byte of sha1(doc). */
export function halfOf(doc: string): 'a' | 'b' {
  return (createHash('sha1').update(doc).digest()[0]! & 1) === 0 ? 'a' : 'b';
}

export function loadQueries(file: string): LabQuery[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => {
      const q = JSON.parse(l) as { doc: string; keyword: string; task: string };
      return { ...q, half: halfOf(q.doc) };
    });
}

/**
 * The search-eval folder: --eval-dir / $SEARCH_EVAL_DIR, else `../shared/search-eval` from the repo root,
 * else the first `shared/search-eval` found walking up from the repo root (a git worktree sits deeper).
 */
export function findEvalDir(explicit?: string): string {
  if (explicit) return explicit;
  if (process.env.SEARCH_EVAL_DIR) return process.env.SEARCH_EVAL_DIR;
  const root = resolve(import.meta.dirname, '../..');
  for (let dir = root; ; dir = dirname(dir)) {
    const candidate = join(dirname(dir), 'shared', 'search-eval');
    if (existsSync(join(candidate, 'dev-queries.jsonl'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  return join(root, '..', 'shared', 'search-eval');
}
