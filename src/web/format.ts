// How the pages write numbers, dates, sizes and links: small pure functions the templates call as `it.f`.
import { cutText } from '../domain/summaries.js';

const UNIT_TYPE_LABELS: Record<string, string> = {
  pattern: 'Pattern',
  technique: 'Technique',
  procedure: 'Procedure',
  fact: 'Fact',
  pitfall: 'Pitfall',
  reference: 'Reference',
  tool_usage: 'Tool usage',
  reasoning_trace: 'Reasoning trace',
};

const ACTIONS: Record<string, string> = {
  contribute_skill: 'published a skill',
  contribute_knowledge: 'contributed a knowledge unit',
  validate_knowledge: 'validated a knowledge unit',
};

/** A results page's parameters: the kind, the words, the page, and any list filter as text. */
export interface SearchParams {
  kind?: 'skills' | 'knowledge';
  q?: string | undefined;
  types?: string[] | string;
  page?: number;
  [filter: string]: string | string[] | number | undefined;
}

export const format = {
  /** A score in [0, 1] with two decimals. */
  quality: (score: number): string => score.toFixed(2),
  /** Reputation: exact to the thousandth, without trailing zeros. */
  score: (value: number): string => String(Math.round(value * 1000) / 1000),
  signed: (value: number): string => `${value >= 0 ? '+' : '−'}${Math.abs(Math.round(value * 1000) / 1000)}`,
  /** The day of an ISO timestamp (UTC). */
  day: (iso: string): string => iso.slice(0, 10),
  /** A count with thousands separators. */
  count: (n: number): string => n.toLocaleString('en-US'),
  plural: (n: number, one: string, many: string): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`,
  bytes(n: number): string {
    if (n < 1024) return `${n} B`;
    if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
    return `${(n / 1024 / 1024).toFixed(1)} MiB`;
  },
  /** The start of a text, cut at `max` characters (never inside a surrogate pair) and marked when cut. */
  excerpt: (text: string, max: number): string => (text.length <= max ? text : `${cutText(text, max)}…`),
  unitType: (type: string): string => UNIT_TYPE_LABELS[type] ?? type,
  action: (action: string): string => ACTIONS[action] ?? action,
  /** Where a history item's target is read. */
  targetHref: (action: string, id: string): string =>
    action === 'contribute_skill' ? `/skills/${encodeURIComponent(id)}` : `/knowledge/${encodeURIComponent(id)}`,
  skillHref: (id: string, version?: string): string =>
    `/skills/${encodeURIComponent(id)}${version === undefined ? '' : `?version=${encodeURIComponent(version)}`}`,
  unitHref: (id: string): string => `/knowledge/${encodeURIComponent(id)}`,
  agentHref: (agentId: string): string => `/agents/${encodeURIComponent(agentId)}`,
  /** A results page's address; empty parameters are left out, as a form leaves them empty. */
  searchHref(params: SearchParams): string {
    const query = new URLSearchParams();
    const { kind, q, page, ...filters } = params;
    if (kind && kind !== 'skills') query.set('kind', kind);
    if (q) query.set('q', q);
    for (const [name, value] of Object.entries(filters)) {
      for (const v of Array.isArray(value) ? value : [value])
        if (v !== undefined && v !== '') query.append(name, String(v));
    }
    if (page && page > 1) query.set('page', String(page));
    const text = query.toString();
    return text ? `/search?${text}` : '/search';
  },
};
