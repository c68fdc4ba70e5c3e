// The README's configuration table, generated from the declared variables (npm run docs:config writes
// it; a test fails when the README and this differ).
import { VARIABLES, type Variable, type VariableName } from './variables.js';

export const TABLE_START = '<!-- config-table:start -->';
export const TABLE_END = '<!-- config-table:end -->';

const NAMES = Object.keys(VARIABLES) as VariableName[];

function shownDefault(name: VariableName): string {
  const variable: Variable = VARIABLES[name];
  if (variable.shownDefault !== undefined) return variable.shownDefault;
  if (variable.default === undefined || variable.default === false) return 'unset';
  return `\`${String(variable.default)}\``;
}

/** The Markdown table: one row a variable, in declaration order. */
export function configTable(): string {
  const rows = NAMES.map(
    (name) => `| \`${name}\` | ${shownDefault(name)} | ${VARIABLES[name].doc.replaceAll('|', '\\|')} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The document with the table between its markers replaced by the generated one. */
export function withConfigTable(document: string): string {
  const start = document.indexOf(TABLE_START);
  const end = document.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`the document has no ${TABLE_START} … ${TABLE_END} markers`);
  return `${document.slice(0, start + TABLE_START.length)}\n${configTable()}\n${document.slice(end)}`;
}
