// What routes are given: the store, the configuration, and injectable time and ids.
import type { Config } from '../config.js';
import type { IdSource } from '../domain/ids.js';
import type { Store } from '../store/store.js';

export interface Deps {
  store: Store;
  config: Config;
  clock: () => Date;
  ids: IdSource;
}

export const isoNow = (deps: Deps) => deps.clock().toISOString();
