// The command line's stored login: one JSON file in the user's config directory (XDG_CONFIG_HOME on Linux,
// ~/Library/Preferences on macOS, %APPDATA% on Windows), readable by its owner alone (0600, folder 0700).
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import envPaths from 'env-paths';

export interface StoredLogin {
  /** The registry the key belongs to: the key is sent to that registry only. */
  url?: string;
  key?: string;
  agent_id?: string;
}

export const DEFAULT_URL = 'http://127.0.0.1:3000';

export function configPath(): string {
  return join(envPaths('knowledge-registry', { suffix: '' }).config, 'config.json');
}

export function readLogin(): StoredLogin {
  try {
    const stored = JSON.parse(readFileSync(configPath(), 'utf8')) as unknown;
    return typeof stored === 'object' && stored !== null ? (stored as StoredLogin) : {};
  } catch {
    return {};
  }
}

/** Writes the login through a temporary file of mode 0600, so no moment exists where others could read it. */
export function writeLogin(login: StoredLogin): string {
  const file = configPath();
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(login, null, 2)}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, file);
  return file;
}

export function removeLogin(): boolean {
  try {
    rmSync(configPath());
    return true;
  } catch {
    return false;
  }
}

/** Normalised registry URL (no trailing slash), so a stored login matches however the URL was typed. */
export const sameRegistry = (a: string, b: string) => a.replace(/\/+$/, '') === b.replace(/\/+$/, '');

/**
 * The registry and key a command uses: --url, REG_URL, the stored login's, or the default; --key, REG_API_KEY,
 * or the stored key when the stored login is for that same registry (a key never goes to another one).
 */
export function resolveTarget(
  options: { url?: string; key?: string },
  env = process.env,
): { url: string; key?: string; stored: StoredLogin } {
  const stored = readLogin();
  const url = (options.url ?? env.REG_URL ?? stored.url ?? DEFAULT_URL).replace(/\/+$/, '');
  const storedKey = stored.key && (!stored.url || sameRegistry(stored.url, url)) ? stored.key : undefined;
  const key = options.key ?? (env.REG_API_KEY || undefined) ?? storedKey;
  return { url, key, stored };
}
