// npm run docs:config: writes the configuration table, generated from src/config/variables.ts, into the
// README between its markers.
import { readFileSync, writeFileSync } from 'node:fs';
import { withConfigTable } from '../src/config/table.js';

const README = new URL('../README.md', import.meta.url);
const before = readFileSync(README, 'utf8');
const after = withConfigTable(before);
writeFileSync(README, after);
console.log(
  after === before ? 'README.md: the configuration table is current' : 'README.md: configuration table written',
);
