// Reads the declared variables from an environment: blank is unset, text is converted to the schema's
// type, and a value the schema refuses is a one-line ConfigError naming the variable and what it accepts.
import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { VARIABLES, type Settings, type Variable, type VariableName } from './variables.js';

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;
type Setting = string | number | boolean | undefined;

const NO = ['0', 'false', 'no', 'off'];
const YES = ['1', 'true', 'yes', 'on'];

interface Bounds {
  type?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
}

/** What the schema accepts, in words. */
export function accepts(variable: Variable): string {
  const schema = variable.schema as TSchema & Bounds;
  if (schema.type === 'integer') return `an integer from ${schema.minimum} to ${schema.maximum}`;
  if (schema.type === 'boolean') return `a flag (${YES.join(', ')} or ${NO.join(', ')})`;
  if (schema.enum) return `one of ${schema.enum.join(', ')}`;
  return variable.accepts ?? 'non-blank text';
}

function convert(schema: TSchema & Bounds, raw: string): unknown {
  if (schema.type === 'integer') return /^[+-]?\d{1,16}$/.test(raw) ? Number(raw) : raw;
  if (schema.type === 'boolean') {
    if (NO.includes(raw.toLowerCase())) return false;
    return YES.includes(raw.toLowerCase()) ? true : raw;
  }
  if (schema.enum) return raw.toLowerCase();
  return raw;
}

/** A URL as a message may show it: its password blanked (`postgres://registry:***@db/registry`). */
export const withoutPassword = (url: string) => url.replace(/\/\/([^:/@\s]*):[^@/\s]*@/, '//$1:***@');

/** A refused value as an error may repeat it: secrets hidden, a URL's password blanked, at most 80 characters. */
function shown(name: string, raw: string): string {
  if (name === 'REG_SECRET' || name.endsWith('_API_KEY')) return '[hidden]';
  const text = withoutPassword(raw);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

/** One variable's value: its default when unset or blank, else the converted text, checked. */
function readVariable(env: Env, name: VariableName): Setting {
  const variable: Variable = VARIABLES[name];
  const raw = variable.untrimmed ? env[name] : env[name]?.trim();
  if (raw === undefined || raw === '') return variable.default;
  const value = convert(variable.schema, raw);
  if (!Value.Check(variable.schema, value)) {
    throw new ConfigError(`${name} must be ${accepts(variable)}, got ${JSON.stringify(shown(name, raw))}`);
  }
  return value as Setting;
}

/** Every declared variable, read once, each of the type its schema declares. */
export function readVariables(env: Env): Settings {
  const names = Object.keys(VARIABLES) as VariableName[];
  return Object.fromEntries(names.map((name) => [name, readVariable(env, name)])) as Settings;
}
