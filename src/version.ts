// The package's version (package.json), for the command line's --version, its User-Agent, and the OpenAPI
// document's info.version (which the page at /docs shows). Read once; the path holds from src/ and dist/.
import { readFileSync } from 'node:fs';

export const PACKAGE_VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
