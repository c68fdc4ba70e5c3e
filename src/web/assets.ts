// The pages' static files (stylesheet, script, icon), read once at start-up and served from memory under
// a fingerprinted URL: the first 16 hex digits of the content's SHA-256 in the name. A URL therefore
// always means the same bytes, so browsers may keep it for a year without asking again (immutable);
// any other name is a 404. They are outside the API's rate limits: a page costs one counted request.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ASSET_PREFIX = '/assets/';

interface Asset {
  url: string;
  body: Buffer;
  type: string;
  etag: string;
}

const SOURCES = {
  style: { file: 'style.css', type: 'text/css; charset=utf-8' },
  script: { file: 'copy.js', type: 'text/javascript; charset=utf-8' },
  icon: { file: 'icon.svg', type: 'image/svg+xml' },
} as const;

export type AssetName = keyof typeof SOURCES;

export interface Assets {
  /** The fingerprinted URL of each file, for the pages' <link> and <script> tags. */
  urls: Record<AssetName, string>;
  /** The file a fingerprinted name stands for; undefined for any other name. */
  byName(name: string): Asset | undefined;
}

/** Reads the files beside this module (copied next to the compiled code by the build). */
export function loadAssets(dir = fileURLToPath(new URL('./assets/', import.meta.url))): Assets {
  const byName = new Map<string, Asset>();
  const urls = {} as Record<AssetName, string>;
  for (const [name, source] of Object.entries(SOURCES) as [AssetName, (typeof SOURCES)[AssetName]][]) {
    const body = readFileSync(join(dir, source.file));
    const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
    const dot = source.file.lastIndexOf('.');
    const fingerprinted = `${source.file.slice(0, dot)}.${hash}${source.file.slice(dot)}`;
    byName.set(fingerprinted, { url: ASSET_PREFIX + fingerprinted, body, type: source.type, etag: `"${hash}"` });
    urls[name] = ASSET_PREFIX + fingerprinted;
  }
  return { urls, byName: (name) => byName.get(name) };
}
