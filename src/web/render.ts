// Pages from Eta templates (src/web/templates): compiled once, cached, and escaping every value written
// with `<%= … %>`. The only unescaped writes are `<%~ include(…) %>` and values named `…Html`, which
// come from markdown.ts's sanitizer (a test holds the templates to that rule).
import { fileURLToPath } from 'node:url';
import { Eta } from 'eta';
import type { Assets } from './assets.js';
import { format } from './format.js';

export interface PageMeta {
  /** The page's own title; the registry's name follows it in <title>. */
  title: string;
  /** The header's search box is left out where the page has its own (home, results). */
  searchBox?: boolean;
  /** The text the header's search box starts with. */
  q?: string;
  /** Which main section the page belongs to, for aria-current in the navigation. */
  section?: 'home' | 'skills' | 'knowledge' | 'agents';
}

export class Pages {
  private readonly eta: Eta;

  constructor(
    private readonly assets: Assets,
    views = fileURLToPath(new URL('./templates/', import.meta.url)),
  ) {
    this.eta = new Eta({ views, cache: true, autoEscape: true });
  }

  /** The page `template` renders from `data`, inside the layout. */
  render(template: string, meta: PageMeta, data: object): string {
    return this.eta.render(`./${template}`, {
      ...data,
      page: { searchBox: true, q: '', ...meta },
      assets: this.assets.urls,
      f: format,
    });
  }
}
