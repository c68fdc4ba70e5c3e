// One item's row of the attribute table (attribute-table.ts): what it is filtered and ordered by, as it
// is put, as a filter reads it, and as a snapshot saves it.

/** What an item is filtered and ordered by (one item's row, as put and saved). */
export interface Attributes {
  quality: number;
  createdAt: string;
  id: string;
  /** 48 bits of the sha1 of the indexed text: an unchanged text is not indexed again. */
  textKey: number;
  domain: string | null;
  /** Held by a moderator or the scanner. */
  held?: boolean;
  /** Skills. */
  listed?: boolean;
  visibility?: string;
  agentId?: string;
  /** Lower-cased; absent when there are none. */
  tags?: readonly string[];
  conformant?: boolean;
  name?: string;
  /** Units. */
  type?: string;
}

/** An item's row as a snapshot saves it: the Attributes' values in this order, null for absent ones. */
export type SavedRow = [
  quality: number,
  createdAt: string,
  id: string,
  textKey: number,
  domain: string | null,
  listed: boolean | null,
  visibility: string | null,
  agentId: string | null,
  tags: string[] | null,
  conformant: boolean | null,
  name: string | null,
  type: string | null,
  held: boolean | null,
];

/** The saved form of a row (no field names, so a million rows parse faster and take less room). */
export function savedRow(a: Attributes): SavedRow {
  return [
    a.quality,
    a.createdAt,
    a.id,
    a.textKey,
    a.domain,
    a.listed ?? null,
    a.visibility ?? null,
    a.agentId ?? null,
    a.tags ? [...a.tags] : null,
    a.conformant ?? null,
    a.name ?? null,
    a.type ?? null,
    a.held ?? null,
  ];
}

/** A row from its saved form. */
export function fromSavedRow(r: SavedRow): Attributes {
  const [quality, createdAt, id, textKey, domain, listed, visibility, agentId, tags, conformant, name, type, held] = r;
  const a: Attributes = { quality, createdAt, id, textKey, domain };
  if (held !== null && held !== undefined) a.held = held;
  if (listed !== null) a.listed = listed;
  if (visibility !== null) a.visibility = visibility;
  if (agentId !== null) a.agentId = agentId;
  if (tags !== null) a.tags = tags;
  if (conformant !== null) a.conformant = conformant;
  if (name !== null) a.name = name;
  if (type !== null) a.type = type;
  return a;
}
