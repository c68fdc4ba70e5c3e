// YAML, parsed and turned into plain data within the bounds.
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument, type Document } from 'yaml';
import {
  MAX_FRONTMATTER_DEPTH,
  MAX_FRONTMATTER_EXPANDED_CHARS,
  MAX_FRONTMATTER_KEYS,
  MAX_FRONTMATTER_VALUES,
} from './limits.js';
import { assign } from './lenient-values.js';
import { tooDeep, tooManyKeys, tooManyValues } from './shape.js';
import { Refusal, type WarningList } from './types.js';

export type Fields = Record<string, unknown>;

const CONTENT = 'skill_md_content';

export function parseYaml(text: string): Document.Parsed {
  // Errors are plain data here: without stack traces, a document with many errors stays cheap.
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    // logLevel 'error' keeps yaml from calling process.emitWarning (a side effect).
    return parseDocument(text, { schema: 'core', uniqueKeys: false, prettyErrors: false, logLevel: 'error' });
  } finally {
    Error.stackTraceLimit = limit;
  }
}

interface Converted {
  value: unknown;
  /** Characters (plus one per node) the value stands for once aliases are expanded. */
  weight: number;
  /** Nesting of collections inside, 0 for a scalar. */
  height: number;
}

/**
 * A parsed YAML node as plain data. Scalars that YAML reads as numbers or booleans are kept as written
 * (`version: 1.0` is "1.0", as the Agent Skills reference reads it); null stays null. An alias shares the
 * anchored value, and the frontmatter's size with aliases expanded is bounded. A repeated key keeps its last
 * value, with a warning; a key that is a collection is left out, with a warning.
 */
export class Converter {
  private keys = 0;
  private values = 0;
  private readonly anchors = new Map<string, Converted>();

  constructor(
    private readonly warnings: WarningList,
    /** 1-based line of the SKILL.md file for an offset in the parsed text. */
    private readonly lineOf: (offset: number) => number,
  ) {}

  node(node: unknown, depth: number): Converted {
    const converted = this.convert(node, depth);
    if (converted.weight > MAX_FRONTMATTER_EXPANDED_CHARS) {
      throw new Refusal(
        'frontmatter_too_large',
        CONTENT,
        `frontmatter must expand (through aliases) to at most ${MAX_FRONTMATTER_EXPANDED_CHARS} characters`,
      );
    }
    const anchor = (node as { anchor?: string } | null)?.anchor;
    if (anchor) this.anchors.set(anchor, converted);
    return converted;
  }

  private convert(node: unknown, depth: number): Converted {
    this.count(0, 1);
    if (isScalar(node)) {
      const value = scalarText(node);
      return { value, weight: 1 + (value?.length ?? 0), height: 0 };
    }
    if (isAlias(node)) {
      const target = this.anchors.get(node.source);
      if (!target) {
        // `description: *Bold* text`: YAML reads an alias that nothing anchors; a line reader reads text.
        const text = `*${node.source}`;
        this.warnings.add(
          'yaml_lenient',
          `frontmatter line ${this.lineOf(node.range?.[0] ?? 0)}: ${JSON.stringify(text.length > 40 ? `${text.slice(0, 37)}…` : text)} reads as an alias in YAML, but no anchor comes before it; it is read as text: quote it`,
        );
        return { value: text, weight: 1 + text.length, height: 0 };
      }
      if (depth - 1 + target.height > MAX_FRONTMATTER_DEPTH) throw tooDeep();
      return target;
    }
    if (depth > MAX_FRONTMATTER_DEPTH) throw tooDeep();
    if (isSeq(node)) {
      const out: unknown[] = [];
      let weight = 1;
      let height = 0;
      for (const item of node.items) {
        const c = this.node(item, depth + 1);
        out.push(c.value);
        weight += c.weight;
        height = Math.max(height, c.height);
        if (weight > MAX_FRONTMATTER_EXPANDED_CHARS) break; // node() refuses it
      }
      return { value: out, weight, height: height + 1 };
    }
    if (isMap(node)) {
      const out: Fields = {};
      const lines = new Map<string, number>();
      let weight = 1;
      let height = 0;
      for (const pair of node.items) {
        this.count(1, 0);
        if (!isPair(pair)) continue;
        const line = this.lineOf(
          (pair.key as { range?: [number] } | null)?.range?.[0] ??
            (pair.value as { range?: [number] } | null)?.range?.[0] ??
            0,
        );
        const key = this.key(pair.key, depth);
        if (key === null) {
          this.warnings.add(
            'yaml_lenient',
            `frontmatter line ${line}: a key that is a list or a mapping is not supported; the field is left out`,
          );
          continue;
        }
        const c = this.node(pair.value, depth + 1);
        const seen = lines.get(key);
        if (seen !== undefined) {
          this.warnings.add(
            'yaml_lenient',
            `frontmatter line ${line}: the key ${JSON.stringify(key)} repeats line ${seen} (YAML keys must be unique); the last value is used, remove the other`,
          );
        }
        lines.set(key, line);
        assign(out, key, c.value);
        weight += key.length + c.weight;
        height = Math.max(height, c.height);
        if (weight > MAX_FRONTMATTER_EXPANDED_CHARS) break; // node() refuses it
      }
      return { value: out, weight, height: height + 1 };
    }
    return { value: null, weight: 1, height: 0 }; // an empty node
  }

  /** A key as text, or null for a collection key. */
  private key(node: unknown, depth: number): string | null {
    if (node === null || node === undefined) return '';
    if (isScalar(node)) return scalarText(node) ?? '';
    if (isAlias(node)) {
      const value = this.convert(node, depth).value;
      return typeof value === 'string' ? value : value === null ? '' : null;
    }
    return null;
  }

  private count(keys: number, values: number): void {
    this.keys += keys;
    this.values += values;
    if (this.keys > MAX_FRONTMATTER_KEYS) throw tooManyKeys();
    if (this.values > MAX_FRONTMATTER_VALUES) throw tooManyValues();
  }

  /** Entry values, for the lenient reader: one converted top-level pair per entry. */
  pairValue(pair: unknown): unknown {
    if (!isPair(pair)) return null;
    this.count(1, 0);
    return this.node(pair.value, 2).value;
  }
}

function scalarText(node: { value: unknown; source?: string }): string | null {
  const { value } = node;
  if (typeof value === 'string') return value;
  if (value === null || value === undefined) return null;
  return typeof node.source === 'string' ? node.source : String(value);
}

/** 1-based SKILL.md line numbers for offsets in the frontmatter (the opening --- is line 1). */
export class Lines {
  private readonly starts: number[] = [0];
  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  /** Index (0-based) of the frontmatter line holding `offset`. */
  index(offset: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }

  at(offset: number): number {
    return this.index(offset) + 2;
  }
}
