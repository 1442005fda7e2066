/**
 * The explorer in a real browser (Debian's Chromium, driven by playwright-core) against the real
 * service on a real socket, seeded with the shipped sample articles: sign in, open a sample
 * article, expand a section, follow a citation to its reference, open a table, the JSON viewer
 * (copy, download), the side-by-side source with its highlight, paste HTML, drop a wikitext
 * file, a phone-sized window, sign out. Screenshots go to test-artifacts/explorer/.
 *
 * Skipped with one line where no Chromium is installed (.ci/run installs Debian's package).
 * The render time of an article with 500 references is measured and printed, not asserted: the
 * machine is shared, and a wall-clock assertion would fail for reasons that are not the page's.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Frame, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { seedSamples } from '../../src/service/content/samples.js';
import { buildExplorer } from '../../scripts/build-explorer.js';
import { BACKENDS, type TestDatabase } from '../service/helpers/backends.js';
import { addUser, startTestServer, type TestServer } from '../service/helpers/harness.js';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const present = existsSync(CHROMIUM);
if (!present) console.log(`explorer browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);

const ARTIFACTS = new URL('../../test-artifacts/explorer/', import.meta.url).pathname;
/** Thumbnails come from the wikis' image host: the only requests that may leave (and fail, offline). */
const IMAGE_HOST = 'https://upload.wikimedia.org/';

/** A Parsoid-like page with `n` cited references, for the render-time measurement. */
function pageWithReferences(n: number): string {
  const cites = Array.from({ length: n }, (_, i) => `Claim ${i}.<sup typeof="mw:Extension/ref" class="mw-ref reference"><a href="./Big#cite_note-${i + 1}"><span class="mw-reflink-text">[${i + 1}]</span></a></sup> `);
  const paragraphs = Array.from({ length: n / 10 }, (_, p) => `<p>${cites.slice(p * 10, p * 10 + 10).join('')}</p>`).join('\n');
  const items = Array.from(
    { length: n },
    (_, i) =>
      `<li id="cite_note-${i + 1}"><span class="mw-reference-text reference-text"><cite typeof="mw:Transclusion" data-mw='{"parts":[{"template":{"target":{"wt":"cite web","href":"./Template:Cite_web"},"params":{"title":{"wt":"Source ${i + 1}"},"url":{"wt":"https://example.org/${i + 1}"},"website":{"wt":"Example"}},"i":0}}]}'>"Source ${i + 1}". Example.</cite></span></li>`,
  ).join('');
  return `<!DOCTYPE html><html><head><base href="//en.wikipedia.org/wiki/"/><title>Big</title></head><body>
<section data-mw-section-id="0">${paragraphs}</section>
<section data-mw-section-id="1"><h2>References</h2><div class="mw-references-wrap"><ol class="mw-references references" typeof="mw:Extension/references">${items}</ol></div></section></body></html>`;
}

describe.skipIf(!present)('the explorer in Chromium', () => {
  let database: TestDatabase;
  let server: TestServer;
  let assets: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let username: string;
  let password: string;
  const errors: string[] = [];
  const requests: string[] = [];

  const shot = (name: string) => page.screenshot({ path: join(ARTIFACTS, `${name}.png`) });
  const frame = (): Frame => page.frame({ url: 'about:srcdoc' })!;
  /**
   * Code run in the page is written as strings: this file is type-checked with node's types, not
   * the DOM's (adding the DOM library would change the types of every other file in the check).
   */
  const inPage = <T>(expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
  const renderTimes = () => inPage<number[]>("performance.getEntriesByName('explorer-render').map((e) => e.duration)");
  /** Waits (polling, not sleeping) for the source pane to hold at least this many marked elements. */
  const sourceMarks = (atLeast: number) =>
    expect
      .poll(() => inPage<number>("document.querySelector('#source-frame')?.contentDocument?.querySelectorAll('[data-ws]').length ?? 0"), { timeout: 15_000 })
      .toBeGreaterThanOrEqual(atLeast);

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    database = await BACKENDS[0]!.open();
    await seedSamples(database.db, { now: () => new Date() });
    assets = await buildExplorer(mkdtempSync(join(tmpdir(), 'wikistruct-explorer-assets-')));
    server = await startTestServer(database.db, { outboxDir: join(database.dir, 'outbox'), offline: true, content: { parseThreads: 1 }, explorer: { assetsDir: assets } });
    ({ username, password } = await addUser(database.db, server.clock));
    browser = await chromium.launch({ executablePath: CHROMIUM });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('console', (m) => {
      // Thumbnails fail to load offline; that is the page's designed fallback, not an error of it.
      if (m.type() === 'error' && !/Failed to load resource: net::ERR_/.test(m.text())) errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('request', (r) => requests.push(r.url()));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
    await database?.dispose();
    if (assets !== undefined) rmSync(assets, { recursive: true, force: true });
  });

  test('the page loads with every control labelled and asks to sign in', async () => {
    await page.goto(server.url);
    await page.locator('#sign-in').waitFor();
    const unlabelled = await inPage<string[]>("[...document.querySelectorAll('input, select, textarea')].filter((el) => el.labels.length === 0 && !el.hasAttribute('aria-label')).map((el) => el.id)");
    expect(unlabelled, 'every control has a label').toEqual([]);
    expect(await page.locator('#account').isVisible(), 'no account shown').toBe(false);
    await shot('01-sign-in');
  });

  test('signs in; the tokens live in session storage only', async () => {
    await page.getByLabel('Username').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.locator('#open').waitFor();
    expect(await page.locator('#account-name').textContent()).toBe(username);
    const stored = await inPage<unknown>('({ session: Object.keys(sessionStorage), local: Object.keys(localStorage), cookie: document.cookie })');
    expect(stored).toEqual({ session: ['wikistruct.explorer.session'], local: [], cookie: '' });
  });

  test('opens a sample article by project and title: header, abstract, outline, infobox, tables, references', async () => {
    await page.getByLabel('Project', { exact: true }).fill('enwiki');
    await page.getByLabel('Title', { exact: true }).fill('Albert_Einstein');
    await page.getByRole('button', { name: 'Open' }).click();
    await page.locator('.article-name').waitFor();
    expect(await page.locator('.article-name').textContent()).toBe('Albert Einstein');
    expect(await page.locator('.description').textContent()).toMatch(/physicist/);
    expect(await page.locator('.abstract').textContent()).toMatch(/^Abstract\s+Albert Einstein was a German-born theoretical physicist/);
    expect(await page.locator('table.infobox').count(), 'the infobox').toBe(1);
    expect(await page.locator('table.infobox th[scope="row"]').count(), 'its fields').toBeGreaterThan(5);
    expect(await page.locator('ol.references > li').count(), 'every reference').toBeGreaterThan(300);
    expect(await page.locator('#table-list details').count()).toBeGreaterThanOrEqual(1);
    console.log(`explorer: Albert Einstein (enwiki) rendered in ${(await renderTimes()).at(-1)!.toFixed(1)} ms`);
    await shot('02-article');
  });

  test('expands a section by mouse and by keyboard', async () => {
    const life = page.locator('#outline details.section', { has: page.locator(':scope > summary', { hasText: 'Life and career' }) });
    expect(await life.getAttribute('open'), 'closed at first').toBeNull();
    await life.locator(':scope > summary').click();
    expect(await life.getAttribute('open'), 'opened').not.toBeNull();
    const childhood = life.locator('details.section', { has: page.locator(':scope > summary', { hasText: 'Childhood, youth and education' }) });
    await childhood.locator(':scope > summary').focus();
    await page.keyboard.press('Enter');
    expect(await childhood.getAttribute('open'), 'opened with Enter').not.toBeNull();
    const paragraph = childhood.locator('p.paragraph').first();
    expect(await paragraph.isVisible()).toBe(true);
    expect(await paragraph.textContent()).toMatch(/Einstein/);
    await childhood.scrollIntoViewIfNeeded();
    await shot('03-section');
  });

  test('follows a citation to its reference, which gets the focus', async () => {
    const cite = page.locator('#outline .cite').first();
    const href = (await cite.getAttribute('href'))!;
    await cite.click();
    const focused = await inPage<{ id: string; className: string }>('({ id: document.activeElement.id, className: document.activeElement.className })');
    expect(focused.id, 'the reference the marker names').toBe(decodeURIComponent(href.slice(1)));
    expect(focused.className).toContain('current');
    expect(await page.locator(`[id="${focused.id}"]`).isVisible()).toBe(true);
    expect(await page.locator(`[id="${focused.id}"] .ref-type`).textContent(), 'with its type').toMatch(/^\w+/);
    await shot('04-reference');
  });

  test('opens a table: a grid with distinct headers and the confidence badge', async () => {
    const entry = page.locator('#table-list details').first();
    await entry.locator('summary').click();
    const grid = entry.locator('table.grid');
    await grid.waitFor();
    expect(await grid.locator('thead th[scope="col"]').count(), 'column headers').toBeGreaterThan(1);
    expect(await grid.locator('tbody tr').count(), 'rows').toBeGreaterThan(1);
    expect(await entry.locator('.badge').textContent()).toMatch(/^confidence \d\.\d\d$/);
    const background = (selector: string) => inPage<string>(`getComputedStyle(document.querySelector('#table-list table.grid ${selector}')).backgroundColor`);
    const headerBackground = await background('thead th');
    const cellBackground = await background('tbody td');
    expect(headerBackground, 'a header colour').toMatch(/^rgb/);
    expect(headerBackground, 'headers look different from cells').not.toBe(cellBackground);
    await entry.scrollIntoViewIfNeeded();
    await shot('05-table');
  });

  test('the JSON tab, reached by keyboard: the Article as JSON, copied and downloaded whole', async () => {
    await page.locator('#view-tab-structure').focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.locator('#view-tab-json').getAttribute('aria-selected')).toBe('true');
    const text = (await page.locator('#json').textContent())!;
    const article = JSON.parse(text) as { name: string; references: unknown[] };
    expect(article.name).toBe('Albert Einstein');
    await page.getByRole('button', { name: 'Copy JSON' }).click();
    expect(JSON.parse(await inPage<string>('navigator.clipboard.readText()')), 'copied whole').toEqual(article);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download JSON' }).click()]);
    expect(download.suggestedFilename()).toBe('Albert_Einstein.json');
    expect(JSON.parse(readFileSync((await download.path())!, 'utf8')), 'downloaded whole').toEqual(article);
    await shot('06-json');
  });

  test('side by side: the sanitised source, and the part under the pointer lit in the other pane', async () => {
    await page.locator('#view-tab-source').click();
    await sourceMarks(100);
    expect(await page.locator('#source-frame').getAttribute('sandbox'), 'no scripts in the source pane').toBe('allow-same-origin');
    expect(await frame().locator('script, style, img, iframe').count(), 'nothing active or remote left').toBe(0);
    // Pointer on a part: its source element is lit.
    const part = page.locator('#source-outline p[data-src]').nth(2);
    const index = (await part.getAttribute('data-src'))!;
    await part.hover();
    expect(await frame().locator(`[data-ws="${index}"]`).getAttribute('class'), 'its source element lit').toContain('lit');
    expect(await part.getAttribute('class'), 'the part itself lit').toContain('lit');
    await shot('07-side-by-side');
    // Pointer on the source: the part is lit.
    const heading = frame().locator('h2[data-ws]').nth(1);
    const headingIndex = (await heading.getAttribute('data-ws'))!;
    await heading.hover();
    expect(await page.locator(`#source-outline [data-src="${headingIndex}"]`).getAttribute('class'), 'the section of the heading under the pointer lit').toContain('lit');
    // And by keyboard: focus a part.
    const other = page.locator('#source-outline p[data-src]').nth(5);
    await other.focus();
    expect(await frame().locator(`[data-ws="${(await other.getAttribute('data-src'))!}"]`).getAttribute('class'), 'the focused part’s source lit').toContain('lit');
  });

  test('pasted HTML is parsed by /v2/parse and shown; its scripts never run and it loads nothing', async () => {
    const pixel = `${server.url}/pixel.png`;
    const html = `<!DOCTYPE html><html><head><base href="//en.wikipedia.org/wiki/"/><title>Pasted page</title><script>window.pwned = 1</script></head><body>
<section data-mw-section-id="0"><p>A pasted claim.<sup typeof="mw:Extension/ref" class="mw-ref reference"><a href="./P#cite_note-1"><span class="mw-reflink-text">[1]</span></a></sup> <img src="${pixel}" onerror="window.pwned = 2"></p></section>
<section data-mw-section-id="1"><h2>Data</h2><table class="wikitable"><tr><th>Year</th><th>Value</th></tr><tr><td>2001</td><td>1</td></tr><tr><td>2002</td><td>2</td></tr></table></section>
<section data-mw-section-id="2"><h2>References</h2><ol class="mw-references references"><li id="cite_note-1"><span class="mw-reference-text reference-text">A source.</span></li></ol></section></body></html>`;
    await page.locator('#tab-paste').click();
    await page.getByLabel(/Article HTML, an envelope, or wikitext/).fill(html);
    await page.getByRole('button', { name: 'Parse' }).click();
    await page.locator('.article-name', { hasText: '(no name)' }).or(page.locator('.article-name', { hasText: 'Pasted page' })).waitFor();
    expect(await page.locator('#table-list details').count()).toBe(1);
    expect(await page.locator('ol.references > li').count()).toBe(1);
    await shot('08-pasted');
    await page.locator('#view-tab-source').click();
    await sourceMarks(3);
    expect(await frame().locator('.ws-img').count(), 'the image is a placeholder').toBe(1);
    expect(await inPage<unknown>('window.pwned'), 'no script of the page ran').toBeUndefined();
    expect(requests.filter((url) => url.startsWith(pixel)), 'nothing of the page was requested').toEqual([]);
    await shot('09-pasted-side-by-side');
  });

  test('a hostile image in pasted HTML causes no request: a link instead, and the page policy as a backstop (issue 22)', async () => {
    const hostile: string[] = [];
    // Anything addressed to the tracker is recorded and refused here, should the page ask for it.
    await context.route(/^https:\/\/evil\.example\//, (route) => {
      hostile.push(route.request().url());
      return route.abort();
    });
    const html = `<!DOCTYPE html><html><head><base href="//en.wikipedia.org/wiki/"/><title>Pixel page</title></head><body>
<section data-mw-section-id="0"><p>A page with a tracking pixel. <img src="https://evil.example/inline-pixel"></p>
<figure typeof="mw:File/Thumb"><a href="./File:Pixel.png" class="mw-file-description"><img src="https://evil.example/pixel" width="1" height="1" class="mw-file-element"/></a><figcaption>A hostile pixel</figcaption></figure>
<figure typeof="mw:File/Thumb"><a href="./File:Real.jpg" class="mw-file-description"><img src="//upload.wikimedia.org/wikipedia/commons/thumb/a/a1/Real.jpg/220px-Real.jpg" width="220" height="150" class="mw-file-element"/></a><figcaption>A real thumbnail</figcaption></figure>
</section></body></html>`;
    await page.locator('#tab-paste').click();
    await page.locator('#kind').selectOption('html');
    try {
      await page.locator('#pasted').fill(html);
      await page.getByRole('button', { name: 'Parse' }).click();
    } finally {
      await page.locator('#kind').selectOption('auto');
    }
    await page.locator('#outline figure.image figcaption', { hasText: 'A hostile pixel' }).waitFor();
    const figures = page.locator('#outline figure.image');
    expect(await figures.count(), 'both images are parts').toBe(2);
    expect(await figures.nth(0).locator('img').count(), 'the hostile one is no <img>').toBe(0);
    const link = figures.nth(0).locator('a.remote-image');
    expect([await link.getAttribute('href'), await link.textContent()], 'but a link the reader may follow').toEqual(['https://evil.example/pixel', '[image from evil.example: open]']);
    expect(await figures.nth(1).locator('img').getAttribute('src'), 'the wiki’s own thumbnail is an image').toBe('https://upload.wikimedia.org/wikipedia/commons/thumb/a/a1/Real.jpg/220px-Real.jpg');
    await page.locator('#view-tab-source').click();
    await sourceMarks(2);
    expect(await page.locator('#source-outline a.remote-image').count(), 'the side-by-side outline too').toBe(1);
    expect(requests.filter((url) => url.includes('evil.example')), 'the renderer asked for nothing from the tracker').toEqual([]);
    // Markup that slipped past the renderer: the page's policy refuses to fetch it. Chromium still
    // reports the attempt as a request, failed (reason "csp") before any network. Only the
    // tracker's requests are counted: on a machine without DNS the wiki's own thumbnail can fail
    // to load in the same window, which says nothing about the policy.
    const failed: string[] = [];
    const onFailed = (r: { url(): string; failure(): { errorText: string } | null }) => {
      if (r.url().startsWith('https://evil.example/')) failed.push(`${r.url()} ${r.failure()?.errorText}`);
    };
    page.on('requestfailed', onFailed);
    const before = errors.length;
    await inPage("{ const img = document.createElement('img'); img.src = 'https://evil.example/injected'; document.body.append(img); }");
    await expect.poll(() => failed, { timeout: 15_000 }).toEqual(['https://evil.example/injected csp']);
    page.off('requestfailed', onFailed);
    expect(errors.slice(before).join('\n'), 'the console names the directive').toMatch(/the image 'https:\/\/evil\.example\/injected' violates the following Content Security Policy directive: "img-src /);
    // What this test provoked is not an error or a request of the page's own.
    errors.splice(before);
    requests.splice(0, requests.length, ...requests.filter((url) => url !== 'https://evil.example/injected'));
    await page.locator('#view-tab-structure').click();
    await shot('09b-hostile-image');
    expect(hostile, 'nothing addressed to the tracker left the browser').toEqual([]);
    await context.unroute(/^https:\/\/evil\.example\//);
  });

  test('a dropped wikitext file is read as wikitext, titled from its name, and parsed', async () => {
    await page.locator('#tab-paste').click();
    await page.locator('#pasted').fill('');
    await inPage("document.querySelector('#wt-name').value = ''"); // hidden until the input reads as wikitext
    const wikitext = "'''Dropped''' is a page.<ref>A note.</ref>\n\n== History ==\nIt was dropped.\n\n== References ==\n<references />\n";
    // A drop as the browser delivers one: a DataTransfer holding the file, on the drop box.
    await inPage(`{
      const transfer = new DataTransfer();
      transfer.items.add(new File([${JSON.stringify(wikitext)}], 'Dropped_page.wiki', { type: 'text/plain' }));
      const drop = document.querySelector('#drop');
      drop.dispatchEvent(new DragEvent('dragover', { dataTransfer: transfer, bubbles: true, cancelable: true }));
      drop.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }`);
    await expect.poll(() => inPage<string>("document.querySelector('#by-paste').dataset.kind"), { timeout: 15_000 }).toBe('wikitext');
    expect(await page.locator('#wt-name').inputValue(), 'titled from the file name').toBe('Dropped page');
    await page.getByRole('button', { name: 'Parse' }).click();
    await page.locator('.article-name', { hasText: 'Dropped page' }).waitFor();
    expect(await page.locator('#outline summary .section-name').allTextContents()).toEqual(['Lead', 'History']);
    expect(await page.locator('ol.references > li').count()).toBe(1);
  });

  test('an article with 500 references renders (time measured and printed, not asserted)', async () => {
    await page.locator('#tab-paste').click();
    await page.locator('#kind').selectOption('html');
    await page.locator('#pasted').fill(pageWithReferences(500));
    await page.getByRole('button', { name: 'Parse' }).click();
    await page.locator('#status', { hasText: '500 references' }).waitFor();
    expect(await page.locator('ol.references > li').count()).toBe(500);
    expect(await page.locator('#outline .cite').count()).toBe(500);
    const ms = (await renderTimes()).at(-1)!;
    console.log(`explorer: an Article with 500 references rendered in ${ms.toFixed(1)} ms (performance.measure 'explorer-render')`);
    await page.locator('#kind').selectOption('auto');
  });

  test('a phone-sized window: one column, nothing wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('#tab-title').click();
    await page.getByRole('button', { name: 'Open' }).click();
    await page.locator('.article-name', { hasText: 'Albert Einstein' }).waitFor();
    await page.locator('#view-tab-structure').click();
    const overflow = await inPage<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow, 'no horizontal scrolling of the page').toBeLessThanOrEqual(0);
    await inPage('window.scrollTo(0, 0)');
    await shot('10-phone');
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  test('signs out: the refresh token is revoked and the session is gone', async () => {
    const saved = await inPage<{ refreshToken?: string }>("JSON.parse(sessionStorage.getItem('wikistruct.explorer.session') ?? '{}')");
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.locator('#sign-in').waitFor();
    expect(await page.locator('#view').isVisible(), 'the article is gone').toBe(false);
    expect(await inPage<string[]>('Object.keys(sessionStorage)')).toEqual([]);
    const refresh = await server.post('/token-refresh', { username, refresh_token: saved.refreshToken });
    expect(refresh.status, 'revoked').toBe(401);
    await shot('11-signed-out');
  });

  test('no page errors; nothing requested but this server and the image host', () => {
    expect(errors).toEqual([]);
    expect(requests.filter((url) => !url.startsWith(server.url) && !url.startsWith(IMAGE_HOST) && !url.startsWith('blob:') && url !== 'about:srcdoc')).toEqual([]);
  });
});
