// A list page as every door answers it (REST, MCP): the items, the total, where the page starts and its
// size, and `capped` when a search counted no further than its bound.
import type { Page } from '../store/list-queries.js';

export interface ListAnswer<T> {
  data: T[];
  total: number;
  offset: number;
  limit: number;
  capped?: boolean;
}

export function listAnswer<T>(page: Page<T> & { capped?: boolean }, offset: number, limit: number): ListAnswer<T> {
  return {
    data: page.items,
    total: page.total,
    offset,
    limit,
    ...(page.capped !== undefined ? { capped: page.capped } : {}),
  };
}
