// The web pages in a real browser: Debian's Chromium driven by playwright-core (never a downloaded
// browser), headless, a fresh profile per launch. A person's way through (home → results → skill →
// agent → unit) with JavaScript on and off, hostile content with the pages' CSP and with CSP bypassed
// (so the sanitizer alone must hold), axe-core, and a phone's width. Screenshots go to test-results/web/
// (git-ignored) for review. Without Chromium the suite is skipped and says why.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { call, contributeSkill, register, testApp, testConfig, type TestApp } from '../helpers/app.js';
import { seed, type Seeded } from './seed.js';
import { findChromium } from '../helpers/coverage.js';

// The functions handed to page.evaluate run in the browser; this project type-checks without the DOM
// library, so the few browser globals they use are declared here, for this file only.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const window: any;
declare const navigator: any;
declare function getComputedStyle(element: unknown): any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const chromiumFound = findChromium();
const executablePath = 'path' in chromiumFound ? chromiumFound.path : null;
const skip = 'missing' in chromiumFound ? chromiumFound.missing : false;
if (skip) console.log(`browser tests skipped: ${skip}`);

const SHOTS = join(process.cwd(), 'test-results', 'web');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** What a page did that it must not: dialogs, script errors, CSP refusals, requests to other hosts. */
interface Watch {
  dialogs: string[];
  errors: string[];
  cspViolations: string[];
  foreignRequests: string[];
}

describe('the web pages in Chromium', { skip }, () => {
  let t: TestApp;
  let s: Seeded;
  let base: string;
  let browser: Browser;

  before(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await testApp(openSqliteStore('sqlite::memory:'), { config: testConfig({ openAdminRegistration: true }) });
    s = await seed(t.app);
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    // launch() gives every browser a fresh, temporary profile (user-data-dir), removed when it closes.
    browser = await chromium.launch({ executablePath: executablePath!, headless: true, args: CHROMIUM_ARGS });
    console.log(`browser tests: Chromium ${browser.version()} at ${executablePath}; screenshots in ${SHOTS}`);
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(
    options: BrowserContextOptions = {},
  ): Promise<{ page: Page; watch: Watch; close: () => Promise<void> }> {
    const context = await browser.newContext({ viewport: DESKTOP, ...options });
    const page = await context.newPage();
    const watch: Watch = { dialogs: [], errors: [], cspViolations: [], foreignRequests: [] };
    page.on('dialog', (dialog) => {
      watch.dialogs.push(dialog.message());
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => watch.errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Trusted Type/i.test(message.text()))
        watch.cspViolations.push(message.text());
    });
    page.on('request', (request) => {
      if (!request.url().startsWith(base)) watch.foreignRequests.push(request.url());
    });
    return { page, watch, close: () => context.close() };
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  /** No element has an event-handler attribute, no frame or embed exists, every link is http(s), mailto or this site. */
  async function assertInertDom(page: Page, where: string): Promise<void> {
    const found = await page.evaluate(() => {
      type El = {
        tagName: string;
        attributes: Iterable<{ name: string }>;
        getAttribute(name: string): string | null;
        protocol: string;
      };
      const all: El[] = [...document.querySelectorAll('*')];
      return {
        handlers: all.flatMap((el) =>
          [...el.attributes].filter((a) => /^on/i.test(a.name)).map((a) => `${el.tagName} ${a.name}`),
        ),
        embeds: (
          [
            ...document.querySelectorAll('iframe, frame, object, embed, img, svg, math, base, style, meta[http-equiv]'),
          ] as El[]
        ).map((el) => el.tagName),
        scripts: ([...document.scripts] as El[]).map((el) => el.getAttribute('src') ?? 'inline'),
        badLinks: ([...document.querySelectorAll('a[href]')] as El[])
          .map((a) => a.protocol)
          .filter((p) => !['http:', 'https:', 'mailto:'].includes(p)),
        bodyShown: getComputedStyle(document.body).display !== 'none',
        xss: (window.__xss as unknown) ?? null,
      };
    });
    assert.deepEqual(found.handlers, [], `${where}: event handlers`);
    assert.deepEqual(found.embeds, [], `${where}: frames, embeds, images, styles`);
    assert.equal(found.scripts.length, 1, `${where}: only the page's own script`);
    assert.match(found.scripts[0]!, /^\/assets\/copy\.[0-9a-f]{16}\.js$/);
    assert.deepEqual(found.badLinks, [], `${where}: link protocols`);
    assert.ok(found.bodyShown, `${where}: content styles cannot hide the page`);
    assert.equal(found.xss, null, `${where}: no content script ran`);
  }

  function assertQuiet(watch: Watch, where: string): void {
    assert.deepEqual(watch.dialogs, [], `${where}: dialogs`);
    assert.deepEqual(watch.errors, [], `${where}: script errors`);
    assert.deepEqual(watch.cspViolations, [], `${where}: CSP refusals (the page asks for nothing the policy forbids)`);
    assert.deepEqual(watch.foreignRequests, [], `${where}: requests to other hosts`);
  }

  it('takes a reader from home to results, a skill, its publisher and a unit, with JavaScript', async () => {
    const { page, watch, close } = await open({ permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      await page.goto(`${base}/`);
      assert.equal(await page.title(), 'Skills and knowledge for AI agents · Knowledge Registry');
      // The stylesheet is applied (the header's background comes from it).
      assert.equal(
        await page.locator('.site-header').evaluate((el) => getComputedStyle(el).backgroundColor as string),
        'rgb(244, 246, 248)',
      );
      await shot(page, 'home');
      await page.getByLabel('Search skills').fill('pdf tables');
      await page.getByLabel('Search skills').press('Enter');
      await page.waitForURL(/\/search\?q=pdf\+tables$/);
      assert.equal(await page.locator('h1').textContent(), 'Skills matching “pdf tables”');
      await shot(page, 'results-skills');

      await page.getByRole('link', { name: 'pdf-tables', exact: true }).click();
      await page.waitForURL(`${base}/skills/${s.pdfSkill}`);
      assert.equal(await page.locator('h1').textContent(), 'pdf-tables');
      assert.equal(await page.locator('.prose h2').first().textContent(), 'Usage');
      // The copy button: JavaScript adds it, and it copies the install line.
      const cli = page.locator('[data-copy]').first();
      await cli.getByRole('button', { name: 'Copy' }).click();
      await cli.getByRole('button', { name: 'Copied' }).waitFor();
      assert.equal(
        await page.evaluate(() => navigator.clipboard.readText() as Promise<string>),
        `kreg --url ${base} install ${s.pdfSkill}`,
      );
      await shot(page, 'skill');

      await page.getByRole('link', { name: '1.1.0' }).click();
      await page.waitForURL(/version=1\.1\.0/);
      assert.match((await page.locator('.note').textContent()) ?? '', /was yanked/);
      await shot(page, 'skill-yanked-version');

      await page.locator('.page-head').getByRole('link', { name: 'alice' }).click();
      await page.waitForURL(`${base}/agents/alice`);
      assert.equal(await page.locator('h1').textContent(), 'alice');
      await shot(page, 'agent');

      await page.getByRole('link', { name: 'Retry idempotent requests with exponential backoff' }).first().click();
      await page.waitForURL(`${base}/knowledge/${s.retryUnit}`);
      assert.equal(await page.locator('h1').textContent(), 'Retry idempotent requests with exponential backoff');
      await shot(page, 'unit');

      // Knowledge results with a type filter, through the form.
      await page.goto(`${base}/search?kind=knowledge`);
      await page.getByLabel('Pitfall').check();
      await page.getByRole('button', { name: 'Apply filters' }).click();
      await page.waitForURL(/types=pitfall/);
      assert.deepEqual(await page.locator('ol.items h3').allTextContents(), ['Pin dependency versions in CI']);
      await shot(page, 'results-knowledge');
      assertQuiet(watch, 'journey');
    } finally {
      await close();
    }
  });

  it('works the same way with JavaScript off: forms submit, links lead, no copy buttons', async () => {
    const { page, watch, close } = await open({ javaScriptEnabled: false });
    try {
      await page.goto(`${base}/`);
      await page.getByLabel('Search skills').fill('clean csv');
      await page.getByLabel('Search skills').press('Enter');
      await page.waitForURL(/\/search\?q=clean\+csv$/);
      await page.getByRole('link', { name: 'csv-cleaner' }).click();
      await page.waitForURL(/\/skills\//);
      assert.equal(await page.locator('[data-copy] button').count(), 0);
      assert.match((await page.locator('[data-copy] pre').first().textContent()) ?? '', /^kreg --url .* install sk_/);
      await shot(page, 'nojs-skill');
      await page.locator('.page-head').getByRole('link', { name: 'bob' }).click();
      await page.waitForURL(`${base}/agents/bob`);
      await page.goto(`${base}/search?kind=knowledge`);
      await page.getByLabel('Search knowledge units').fill('retry');
      await page.getByLabel('Pattern').check();
      await page.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL(/kind=knowledge&q=retry&domain=&tags=&min_quality=&types=pattern/);
      await page.getByRole('link', { name: 'Retry idempotent requests with exponential backoff' }).click();
      await page.waitForURL(`${base}/knowledge/${s.retryUnit}`);
      await shot(page, 'nojs-unit');
      assertQuiet(watch, 'no JavaScript');
    } finally {
      await close();
    }
  });

  for (const bypassCSP of [false, true]) {
    it(`keeps hostile content inert ${bypassCSP ? 'with CSP bypassed: the sanitizer alone' : "under the pages' CSP"}`, async () => {
      const { page, watch, close } = await open({ bypassCSP });
      try {
        const paths = [
          `/skills/${s.hostileSkill}`,
          `/knowledge/${s.hostileUnit}`,
          '/search?q=hostile',
          '/search?kind=knowledge&q=hostile',
          '/agents/bob',
          '/',
        ];
        for (const path of paths) {
          await page.goto(base + path);
          await assertInertDom(page, path);
          // Pointer events too (a mouseover handler would run now): nothing new may happen.
          for (const link of await page.locator('main a').all()) await link.hover({ timeout: 2_000 });
          await assertInertDom(page, `${path}, after hovering its links`);
        }
        await page.goto(`${base}/skills/${s.hostileSkill}`);
        await shot(page, bypassCSP ? 'hostile-skill-no-csp' : 'hostile-skill');
        await page.goto(`${base}/knowledge/${s.hostileUnit}`);
        await shot(page, bypassCSP ? 'hostile-unit-no-csp' : 'hostile-unit');
        assertQuiet(watch, 'hostile content');
      } finally {
        await close();
      }
    });
  }

  it('lets an admin moderate from the queue page: the key typed once, a hold decided, the log showing it', async () => {
    const root = await register(t.app, 'root', ['read', 'write', 'admin']);
    const doomed = await contributeSkill(t.app, s.bobKey, { name: 'doomed-tool', description: 'Sends keys away.' });
    const filed = await call(t.app, 'POST', '/v1/reports', {
      key: s.aliceKey,
      body: { target: doomed.id, reason: 'credential-theft', details: 'posts ~/.ssh to a webhook' },
    });
    assert.equal(filed.statusCode, 201, filed.body);
    const { page, watch, close } = await open();
    try {
      await page.goto(`${base}/admin`);
      await page.getByLabel('Admin API key').fill(root);
      await page.getByRole('button', { name: 'Open the queue' }).click();
      await page.waitForURL(`${base}/admin/queue`);
      assert.equal(
        await page.locator('h1').textContent(),
        'Moderation queue',
        (await page.locator('main').textContent()) ?? '',
      );
      const item = page.locator('section.queue-item', { hasText: doomed.id });
      assert.match((await item.textContent()) ?? '', /posts ~\/\.ssh to a webhook/);
      await shot(page, 'admin-queue');
      await item.getByLabel('Decision').selectOption('hold');
      await item.getByLabel('Reason code').fill('credential-theft');
      await item.getByLabel('Note for the admins (never public)').fill('confirmed by reading setup.sh');
      await item.getByRole('button', { name: 'Decide' }).click();
      await page.waitForURL(`${base}/admin/decisions`);
      assert.match((await page.getByRole('status').textContent()) ?? '', /Recorded: hold of sk_/);
      assert.ok(!page.url().includes(root), 'the key is never in an address');
      await shot(page, 'admin-decided');
      assert.equal((await page.goto(`${base}/skills/${doomed.id}`))?.status(), 404);
      await page.goto(`${base}/moderation`);
      const log = (await page.locator('main').textContent()) ?? '';
      assert.match(log, new RegExp(`hold\\s*${doomed.id}\\s*credential-theft\\s*moderator`));
      assert.ok(!log.includes('confirmed by reading') && !log.includes('alice'), 'no note, no reporter');
      await shot(page, 'moderation-log');
      assertQuiet(watch, 'moderation');
    } finally {
      await close();
    }
  });

  it('has no serious or critical accessibility violation (axe-core) on any page', async () => {
    const axe = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    // axe is injected as a script, which the pages' policy forbids: it runs in a context without CSP.
    const { page, close } = await open({ bypassCSP: true });
    try {
      const pages = [
        '/',
        '/search?q=pdf',
        '/search?kind=knowledge&q=retry',
        `/skills/${s.pdfSkill}`,
        `/skills/${s.hostileSkill}`,
        `/knowledge/${s.retryUnit}`,
        '/agents/alice',
        '/skills/sk_missing',
        '/moderation',
        '/admin',
      ];
      const report: string[] = [];
      for (const path of pages) {
        await page.goto(base + path);
        await page.addScriptTag({ content: axe });
        const violations = await page.evaluate(async () => {
          type Result = { violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] };
          const result: Result = await window.axe.run(document, {
            runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
          });
          return result.violations.map((v) => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            targets: v.nodes.map((n) => n.target.join(' ')),
          }));
        });
        for (const v of violations) report.push(`${path}: ${v.impact} ${v.id} (${v.help}) at ${v.targets.join(', ')}`);
      }
      const severe = report.filter((line) => /: (serious|critical) /.test(line));
      if (report.length > severe.length)
        console.log(`axe, minor or moderate (not failing):\n${report.filter((l) => !severe.includes(l)).join('\n')}`);
      assert.deepEqual(severe, []);
    } finally {
      await close();
    }
  });

  it('shows where the keyboard is: the skip link first, with a visible outline', async () => {
    const { page, close } = await open();
    try {
      await page.goto(`${base}/`);
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => {
        const el = document.activeElement;
        const style = getComputedStyle(el);
        return {
          text: el.textContent as string,
          outline: style.outlineStyle as string,
          width: style.outlineWidth as string,
          top: el.getBoundingClientRect().top as number,
        };
      });
      assert.equal(focused.text, 'Skip to content');
      assert.equal(focused.outline, 'solid');
      assert.equal(focused.width, '3px');
      assert.ok(focused.top >= 0, 'the skip link comes into view when focused');
    } finally {
      await close();
    }
  });

  it('fits a phone: no horizontal scrolling at 390 px on any page', async () => {
    const { page, watch, close } = await open({
      viewport: PHONE,
      isMobile: true,
      hasTouch: true,
      deviceScaleFactor: 2,
    });
    try {
      const pages: [string, string][] = [
        ['/', 'phone-home'],
        ['/search?q=pdf', 'phone-results'],
        ['/search?kind=knowledge', 'phone-results-knowledge'],
        [`/skills/${s.pdfSkill}`, 'phone-skill'],
        [`/skills/${s.hostileSkill}`, 'phone-hostile-skill'],
        [`/knowledge/${s.retryUnit}`, 'phone-unit'],
        [`/knowledge/${s.hostileUnit}`, 'phone-hostile-unit'],
        ['/agents/alice', 'phone-agent'],
      ];
      for (const [path, name] of pages) {
        await page.goto(base + path);
        const widths: { scroll: number; view: number } = await page.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          view: window.innerWidth,
        }));
        assert.ok(
          widths.scroll <= widths.view,
          `${path}: page is ${widths.scroll} px wide in a ${widths.view} px viewport`,
        );
        await shot(page, name);
      }
      assertQuiet(watch, 'phone');
    } finally {
      await close();
    }
  });
});
