/**
 * The upstream wiki client against a fake wiki over a real socket: the happy path through
 * `parse()`, and each failure mode the content route maps to 404, 502 or 504.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { ArticleSchema, parse } from '../../../src/index.js';
import { SingleFlight } from '../../../src/service/content/single-flight.js';
import { upstreamEnvelope } from '../../../src/service/content/upstream/envelope.js';
import {
  UnknownProject,
  UpstreamError,
  UpstreamNotFound,
  UpstreamTimeout,
  UpstreamTooLarge,
  UpstreamUnavailable,
} from '../../../src/service/content/upstream/errors.js';
import type { RetryEvent } from '../../../src/service/content/upstream/http.js';
import type { UpstreamArticle, WikiClientOptions } from '../../../src/service/content/upstream/wiki-client.js';
import { revisionOfHtml, WikiClient } from '../../../src/service/content/upstream/wiki-client.js';
import { corpusDir } from '../../../scripts/conformance/corpus.js';
import { FakeWiki, pageFromEnvelope } from '../../support/fake-wiki.js';

const FOO_HTML = `<!DOCTYPE html>
<html prefix="dc: http://purl.org/dc/terms/ mw: http://mediawiki.org/rdf/" about="https://en.wikipedia.org/wiki/Special:Redirect/revision/1001" lang="en">
<head><meta charset="utf-8"/><meta property="mw:htmlVersion" content="2.8.0"/><base href="//en.wikipedia.org/wiki/"/><title>Foo bar</title></head>
<body class="mw-content-ltr mw-parser-output" lang="en">
<section data-mw-section-id="0"><p><b>Foo bar</b> is a <a rel="mw:WikiLink" href="./Placeholder_name">placeholder name</a> used in examples.</p></section>
<section data-mw-section-id="1"><h2 id="History">History</h2><p>It has been used since the 1960s.</p></section>
</body></html>`;

const CONTACT = 'https://example.org/wikistruct-tests; tests@example.org';

// Small timeouts so that failure modes resolve within about two seconds. No test asserts how long
// anything took: waits are seen through `onRetry`, cancellations through the fake wiki's records.

const FAST: WikiClientOptions = {
  contact: CONTACT,
  attemptTimeoutMs: 500,
  deadlineMs: 2000,
  maxAttempts: 3,
  baseDelayMs: 10,
  maxDelayMs: 40,
  // The tests below fail the same project many times on purpose; the breaker has its own tests.
  breakerThreshold: 0,
};

let wiki: FakeWiki;
let client: WikiClient;

beforeAll(async () => {
  wiki = await FakeWiki.start([
    { title: 'Foo bar', html: FOO_HTML, id: 42, revision: 1001, timestamp: '2024-03-05T06:07:08Z' },
    { title: 'AC/DC', html: FOO_HTML.replace(/Foo bar/g, 'AC/DC'), id: 43 },
    { title: 'Zürich', html: FOO_HTML.replace(/Foo bar/g, 'Zürich'), id: 44 },
    { title: 'Huge', html: `<p>${'x'.repeat(10_000)}</p>`, id: 45 },
    { title: 'Huge streamed', html: `<p>${'x'.repeat(100_000)}</p>`, id: 46, chunked: true },
  ]);
  client = new WikiClient({ ...FAST, resolveOrigin: wiki.resolveOrigin });
});
afterAll(() => wiki.close());
afterEach(() => {
  wiki.heal();
  wiki.requests.length = 0;
});

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    expect(error, 'rejects with a typed upstream error').toBeInstanceOf(UpstreamError);
    return error as UpstreamError;
  }
  throw new Error('the fetch succeeded');
}

describe('WikiClient: happy path', () => {
  it('fetches metadata and Parsoid HTML; parse() turns them into a valid Article with the metadata filled', async () => {
    const fetched = await client.fetchArticle('enwiki', 'Foo bar');
    expect(fetched.meta, 'metadata from the page route').toEqual({
      project: 'enwiki',
      identifier: 42,
      name: 'Foo bar',
      revision: 1001,
      dateModified: '2024-03-05T06:07:08Z',
      url: 'https://en.wikipedia.org/wiki/Foo_bar',
      siteUrl: 'https://en.wikipedia.org',
      contentModel: 'wikitext',
      license: { name: 'Creative Commons Attribution-Share Alike 4.0', url: 'https://creativecommons.org/licenses/by-sa/4.0/' },
    });
    expect(fetched.html, 'the HTML route body, unchanged').toBe(FOO_HTML);

    const article = parse(upstreamEnvelope(fetched));
    expect(ArticleSchema.safeParse(article).success, 'the Article satisfies the output schema').toBe(true);
    expect(article.name, 'name').toBe('Foo bar');
    expect(article.identifier, 'page id').toBe(42);
    expect(article.version?.identifier, 'revision').toBe(1001);
    expect(article.date_modified, 'date modified').toBe('2024-03-05T06:07:08Z');
    expect(article.url, 'canonical URL').toBe('https://en.wikipedia.org/wiki/Foo_bar');
    expect(article.is_part_of, 'project').toEqual({ identifier: 'enwiki', url: 'https://en.wikipedia.org' });
    expect(article.in_language, 'language').toEqual({ identifier: 'en' });
    expect(article.license?.[0]?.url, 'license').toBe('https://creativecommons.org/licenses/by-sa/4.0/');
    expect(article.abstract, 'abstract from the lead').toContain('placeholder name used in examples');
    expect(article.sections.map((s) => s.name), 'sections').toEqual(['abstract', 'History']);
  });

  it('makes exactly one request per route, with a descriptive User-Agent and the right Accept', async () => {
    await client.fetchArticle('enwiki', 'Foo bar');
    expect(wiki.count('Foo bar', 'page'), 'one metadata request').toBe(1);
    expect(wiki.count('Foo bar', 'html'), 'one HTML request').toBe(1);
    for (const r of wiki.requests) {
      expect(r.userAgent, 'User-Agent names the client, its version and the contact').toMatch(
        /^wikistruct\/\d+\.\d+\.\d+ \(https:\/\/example\.org\/wikistruct-tests; tests@example\.org\)/,
      );
    }
    const html = wiki.requests.find((r) => r.route === 'html');
    expect(html?.accept, 'HTML requested in the Parsoid spec profile').toContain('Specs/HTML/2.8.0');
  });

  it('keeps titles with "/" and non-ASCII letters one path segment', async () => {
    const acdc = await client.fetchArticle('enwiki', 'AC/DC');
    expect(acdc.meta.identifier, 'AC/DC found').toBe(43);
    expect(acdc.meta.url, 'article URL keeps the slash').toBe('https://en.wikipedia.org/wiki/AC/DC');
    expect(wiki.requests.some((r) => r.path === '/w/rest.php/v1/page/AC%2FDC/html'), 'slash escaped in the REST path').toBe(true);
    const zurich = await client.fetchArticle('dewiki', 'Zürich');
    expect(zurich.meta.identifier, 'Zürich found').toBe(44);
    expect(zurich.meta.url, 'project host in the URL').toBe('https://de.wikipedia.org/wiki/Z%C3%BCrich');
  });

  it('follows redirects on both routes and reports the final title', async () => {
    wiki.redirect('Foobar', 'Foo bar');
    const fetched = await client.fetchArticle('enwiki', 'Foobar');
    expect(fetched.meta.name, 'final title').toBe('Foo bar');
    expect(fetched.meta.redirectedFrom, 'the requested title').toBe('Foobar');
    expect(fetched.meta.url, 'URL of the target').toBe('https://en.wikipedia.org/wiki/Foo_bar');
    expect(fetched.html, 'HTML of the target').toBe(FOO_HTML);
    expect([wiki.count('Foobar'), wiki.count('Foo bar')], 'one hop per route').toEqual([2, 2]);
  });

  it('asks again when the HTML is of another revision than the metadata, then trusts the HTML', async () => {
    wiki.addPage({ title: 'Edited', html: FOO_HTML.replace('revision/1001', 'revision/1002'), id: 47, revision: 1001 });
    const fetched = await client.fetchArticle('enwiki', 'Edited');
    expect([wiki.count('Edited', 'page'), wiki.count('Edited', 'html')], 'the pair was fetched twice').toEqual([2, 2]);
    expect(fetched.meta.revision, 'the revision the HTML is of').toBe(1002);
    expect(revisionOfHtml(FOO_HTML), 'revision read from <html about>').toBe(1001);
    expect(revisionOfHtml('<p>no head</p>'), 'none declared').toBeUndefined();
  });

  it('gives up on redirect loops', async () => {
    wiki.redirect('Loop A', 'Loop B');
    wiki.redirect('Loop B', 'Loop A');
    const error = await failure(client.fetchArticle('enwiki', 'Loop A'));
    expect(error, 'unavailable').toBeInstanceOf(UpstreamUnavailable);
    expect(error.message, 'names the cause').toContain('more than 5 redirects');
  });

  it('serves a real article from the corpus end to end', async (ctx) => {
    const dir = corpusDir();
    const file = dir === undefined ? undefined : join(dir, 'articles', 'enwiki__Albert_Einstein.json');
    if (file === undefined || !existsSync(file)) return ctx.skip('shared corpus not found (set WIKISTRUCT_CORPUS)');
    const page = pageFromEnvelope(JSON.parse(readFileSync(file, 'utf8')));
    wiki.addPage({ ...page, chunked: true });
    const fetched = await client.fetchArticle('enwiki', page.title);
    const article = parse(upstreamEnvelope(fetched));
    expect(ArticleSchema.safeParse(article).success, 'valid Article').toBe(true);
    expect(article.name, 'name').toBe('Albert Einstein');
    expect(article.identifier, 'page id from the metadata').toBe(page.id);
    expect(article.sections.length, 'a real article has many sections').toBeGreaterThan(5);
    expect(article.abstract, 'abstract').toMatch(/physicist/);
  });
});

describe('WikiClient: failures', () => {
  it('404: UpstreamNotFound, no retries', async () => {
    const error = await failure(client.fetchArticle('enwiki', 'No such page'));
    expect(error, 'not found').toBeInstanceOf(UpstreamNotFound);
    expect(error.status, 'maps to HTTP 404').toBe(404);
    expect(wiki.count('No such page', 'page'), 'metadata asked once').toBe(1);
    expect(wiki.count('No such page'), 'at most one request per route').toBeLessThanOrEqual(2);
  });

  it('500: retried up to maxAttempts, then UpstreamUnavailable (502) naming the project', async () => {
    wiki.fail({ kind: 'status', status: 500 });
    const error = await failure(client.fetchArticle('frwiki', 'Foo bar'));
    expect(error, 'unavailable').toBeInstanceOf(UpstreamUnavailable);
    expect(error.status, 'maps to HTTP 502').toBe(502);
    expect(error.message, 'names the project and the status').toMatch(/frwiki.*HTTP 500/);
    const perRoute = [wiki.count('Foo bar', 'page'), wiki.count('Foo bar', 'html')];
    expect(Math.max(...perRoute), 'three attempts on the route that gave up first').toBe(3);
    expect(perRoute.every((n) => n <= 3), 'never more than maxAttempts').toBe(true);
  });

  it('backs off exponentially with jitter: each wait between half and all of its doubling step, capped', async () => {
    wiki.fail({ kind: 'status', status: 503 }, 'Foo bar');
    const retries: RetryEvent[] = [];
    const persistent = new WikiClient({ ...FAST, maxAttempts: 5, baseDelayMs: 8, maxDelayMs: 20, resolveOrigin: wiki.resolveOrigin, onRetry: (r) => retries.push(r) });
    await failure(persistent.fetchArticle('enwiki', 'Foo bar'));
    const page = retries.filter((r) => r.url.endsWith('/Foo_bar'));
    expect(page.map((r) => r.attempt), 'four retries after the first attempt').toEqual([1, 2, 3, 4]);
    const steps = [8, 16, 20, 20];
    page.forEach((r, i) => {
      expect(r.delayMs, `retry ${r.attempt}`).toBeGreaterThanOrEqual(steps[i]! / 2);
      expect(r.delayMs, `retry ${r.attempt}`).toBeLessThanOrEqual(steps[i]!);
    });
  });

  it('503 then 200: succeeds after one retry', async () => {
    wiki.fail({ kind: 'status', status: 503, times: 1 });
    const fetched = await client.fetchArticle('enwiki', 'Foo bar');
    expect(fetched.meta.identifier, 'the article arrives').toBe(42);
    expect([wiki.count('Foo bar', 'page'), wiki.count('Foo bar', 'html')], 'two requests per route').toEqual([2, 2]);
  });

  it('400: not retried', async () => {
    wiki.fail({ kind: 'status', status: 400 });
    const error = await failure(client.fetchArticle('enwiki', 'Foo bar'));
    expect(error, 'unavailable').toBeInstanceOf(UpstreamUnavailable);
    expect(wiki.count('Foo bar'), 'one request per route').toBeLessThanOrEqual(2);
  });

  it('429 with Retry-After: waits as asked, then succeeds', async () => {
    wiki.fail({ kind: 'status', status: 429, retryAfter: '1', times: 1 });
    const retries: RetryEvent[] = [];
    const patient = new WikiClient({ ...FAST, deadlineMs: 3000, retryAfterCapMs: 2000, resolveOrigin: wiki.resolveOrigin, onRetry: (r) => retries.push(r) });
    const fetched = await patient.fetchArticle('enwiki', 'Foo bar');
    expect(fetched.meta.identifier, 'the article arrives').toBe(42);
    expect(retries.map((r) => [r.attempt, r.reason]), 'one retry per route').toEqual([
      [1, 'HTTP 429'],
      [1, 'HTTP 429'],
    ]);
    expect(retries.every((r) => r.delayMs >= 1000), 'each after the second Retry-After asked for, not the 10-40 ms backoff').toBe(true);
  });

  it('503 with a Retry-After that would end past the deadline: fails at once with what it has', async () => {
    wiki.fail({ kind: 'status', status: 503, retryAfter: '3' });
    const retries: RetryEvent[] = [];
    const hurried = new WikiClient({ ...FAST, deadlineMs: 2000, retryAfterCapMs: 5000, resolveOrigin: wiki.resolveOrigin, onRetry: (r) => retries.push(r) });
    const error = await failure(hurried.fetchArticle('enwiki', 'Foo bar'));
    expect(error, 'the 503, not a timeout').toBeInstanceOf(UpstreamUnavailable);
    expect(error.message).toContain('HTTP 503');
    expect(retries, 'no wait that could not end in time').toEqual([]);
    expect(wiki.count('Foo bar', 'page'), 'asked once').toBe(1);
  });

  it('429 with a Retry-After over the cap: fails at once', async () => {
    wiki.fail({ kind: 'status', status: 429, retryAfter: '120' });
    const error = await failure(client.fetchArticle('enwiki', 'Foo bar'));
    expect(error, 'unavailable').toBeInstanceOf(UpstreamUnavailable);
    expect(error.message, 'says why').toContain('retry after 120 s');
    expect(wiki.count('Foo bar', 'page'), 'no retry').toBe(1);
  });

  it('slow: UpstreamTimeout (504) naming the project, within the deadline', async () => {
    wiki.fail({ kind: 'slow', delayMs: 30_000 });
    const error = await failure(client.fetchArticle('enwiki', 'Foo bar'));
    expect(error, 'timeout').toBeInstanceOf(UpstreamTimeout);
    expect(error.status, 'maps to HTTP 504').toBe(504);
    expect(error.message, 'names the project').toContain('enwiki');
    expect((error as UpstreamTimeout).afterMs, 'gave up by the 2000 ms deadline').toBeLessThanOrEqual(2000);
    expect(wiki.count('Foo bar', 'page'), 'attempts timed out and were retried').toBeGreaterThan(1);
    await wiki.settled();
    expect(wiki.requests.every((r) => r.abandoned), 'every attempt was cut off by the client, none waited for').toBe(true);
  });

  it('slow past the overall deadline: the deadline stops retries mid-attempt', async () => {
    wiki.fail({ kind: 'slow', delayMs: 30_000 });
    const hurried = new WikiClient({ ...FAST, attemptTimeoutMs: 500, deadlineMs: 700, maxAttempts: 5, resolveOrigin: wiki.resolveOrigin });
    const error = await failure(hurried.fetchArticle('enwiki', 'Foo bar'));
    expect(error, 'timeout').toBeInstanceOf(UpstreamTimeout);
    expect((error as UpstreamTimeout).afterMs, 'reports the overall deadline').toBe(700);
    expect(wiki.count('Foo bar', 'page'), 'far fewer than maxAttempts').toBeLessThanOrEqual(2);
    await wiki.settled();
    expect(wiki.requests.every((r) => r.abandoned), 'no attempt outlived the deadline').toBe(true);
  });

  it('a slow first attempt is retried and the second succeeds', async () => {
    wiki.fail({ kind: 'slow', delayMs: 5000, times: 1 });
    const fetched = await client.fetchArticle('enwiki', 'Foo bar');
    expect(fetched.meta.identifier, 'the article arrives').toBe(42);
  });

  it('connection dropped without an answer: retried, then UpstreamUnavailable', async () => {
    wiki.fail({ kind: 'reset' });
    const error = await failure(client.fetchArticle('enwiki', 'Foo bar'));
    expect(error, 'unavailable').toBeInstanceOf(UpstreamUnavailable);
    expect(error.message, 'names the project').toContain('enwiki');
    expect(Math.max(wiki.count('Foo bar', 'page'), wiki.count('Foo bar', 'html')), 'retried').toBe(3);
  });

  it('down (connection refused): UpstreamUnavailable (502) naming the project', async () => {
    const gone = await FakeWiki.start();
    await gone.down();
    const offline = new WikiClient({ ...FAST, resolveOrigin: gone.resolveOrigin });
    const error = await failure(offline.fetchArticle('dewiki', 'Foo bar'));
    expect(error, 'unavailable').toBeInstanceOf(UpstreamUnavailable);
    expect(error.status, 'maps to HTTP 502').toBe(502);
    expect(error.message, 'names the project and the cause').toMatch(/dewiki.*ECONNREFUSED/);
  });

  it('answers over the size cap are refused, declared or streamed', async () => {
    const small = new WikiClient({ ...FAST, maxResponseBytes: 4096, resolveOrigin: wiki.resolveOrigin });
    for (const title of ['Huge', 'Huge streamed']) {
      const error = await failure(small.fetchArticle('enwiki', title));
      expect(error, `${title}: too large`).toBeInstanceOf(UpstreamTooLarge);
      expect(error.status, 'maps to HTTP 502').toBe(502);
      expect(wiki.count(title, 'html'), `${title}: not retried`).toBe(1);
    }
  });

  it.each([
    ['metadata that is not JSON', { kind: 'garbage', body: '<html>proxy error</html>', contentType: 'text/html', route: 'page' }, 'not JSON'],
    ['metadata without a revision', { kind: 'garbage', body: '{"id":1,"key":"Foo_bar","title":"Foo bar","content_model":"wikitext"}', contentType: 'application/json', route: 'page' }, 'field "latest"'],
    ['JSON on the HTML route', { kind: 'garbage', body: '{}', contentType: 'application/json', route: 'html' }, 'answered application/json'],
  ] as const)('%s: UpstreamUnavailable saying what was wrong', async (_, fault, expected) => {
    wiki.fail(fault);
    const error = await failure(client.fetchArticle('enwiki', 'Foo bar'));
    expect(error, 'unavailable').toBeInstanceOf(UpstreamUnavailable);
    expect(error.message, 'names the problem').toContain(expected);
  });

  it('a failure on one route cancels the other: the slow HTML request is dropped once metadata says 404', async () => {
    // Timeouts far beyond the test's own: only the cancellation can end the HTML request in time.
    const patient = new WikiClient({ ...FAST, attemptTimeoutMs: 60_000, deadlineMs: 120_000, resolveOrigin: wiki.resolveOrigin });
    wiki.fail({ kind: 'slow', delayMs: 60_000, route: 'html' }, 'No such page');
    const error = await failure(patient.fetchArticle('enwiki', 'No such page'));
    expect(error, 'not found').toBeInstanceOf(UpstreamNotFound);
    await wiki.settled(2);
    const html = wiki.requests.filter((r) => r.route === 'html');
    expect(html.map((r) => r.abandoned), 'the HTML request was cancelled, not left running').toEqual([true]);
  });

  it('unknown project: UnknownProject, nothing fetched', async () => {
    const error = await failure(client.fetchArticle('notaproject', 'Foo bar'));
    expect(error, 'unknown project').toBeInstanceOf(UnknownProject);
    expect(wiki.requests.length, 'no request made').toBe(0);
  });

  it("the caller's abort ends the fetch at once with the caller's reason", async () => {
    // Timeouts far beyond the test's own: only the abort can end the fetch in time.
    const patient = new WikiClient({ ...FAST, attemptTimeoutMs: 60_000, deadlineMs: 120_000, resolveOrigin: wiki.resolveOrigin });
    wiki.fail({ kind: 'slow', delayMs: 60_000 });
    const controller = new AbortController();
    const pending = patient.fetchArticle('enwiki', 'Foo bar', { signal: controller.signal });
    await wiki.received(2);
    controller.abort(new Error('client went away'));
    await expect(pending, 'rejects with the abort reason').rejects.toThrow('client went away');
    await wiki.settled(2);
    expect(wiki.requests.map((r) => r.abandoned), 'both requests dropped').toEqual([true, true]);
  });

  it("the caller's abort during a backoff wait ends the fetch at once", async () => {
    wiki.fail({ kind: 'status', status: 503 });
    const controller = new AbortController();
    // A 10 s backoff, twice the test's own timeout: only the abort can end the fetch in time.
    const waiting = new WikiClient({
      ...FAST,
      baseDelayMs: 10_000,
      maxDelayMs: 10_000,
      deadlineMs: 60_000,
      resolveOrigin: wiki.resolveOrigin,
      // Once both routes have failed and wait: then nothing of this test is left on the way to the wiki.
      onRetry: () => void wiki.received(2).then(() => controller.abort(new Error('client went away'))),
    });
    await expect(waiting.fetchArticle('enwiki', 'Foo bar', { signal: controller.signal }), 'rejects with the abort reason').rejects.toThrow('client went away');
    await wiki.settled(2);
    expect(wiki.count('Foo bar'), 'no attempt after the wait').toBe(2);
  });
});

describe('single flight over the client', () => {
  // Generous timeouts: these tests count requests, and a retry after a timeout on a busy machine would add some.
  const patient = (): WikiClient => new WikiClient({ ...FAST, attemptTimeoutMs: 10_000, deadlineMs: 20_000, resolveOrigin: wiki.resolveOrigin });

  it('50 concurrent requests for one uncached article make one upstream fetch per route', async () => {
    wiki.fail({ kind: 'slow', delayMs: 100 }, 'Foo bar');
    const flight = new SingleFlight<string, UpstreamArticle>();
    const client = patient();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => flight.run('enwiki/Foo_bar', () => client.fetchArticle('enwiki', 'Foo bar'))),
    );
    expect(wiki.count('Foo bar', 'page'), 'one metadata fetch').toBe(1);
    expect(wiki.count('Foo bar', 'html'), 'one HTML fetch').toBe(1);
    expect(new Set(results).size, 'all 50 callers got the same result').toBe(1);
    expect(results[0]?.meta.identifier, 'and it is the article').toBe(42);
  });

  it('control: without single flight the same 50 requests reach the wiki 50 times', async () => {
    const client = patient();
    await Promise.all(Array.from({ length: 50 }, () => client.fetchArticle('enwiki', 'Foo bar')));
    expect(wiki.count('Foo bar', 'page'), 'the fake wiki counts every fetch').toBe(50);
  });
});

describe('circuit breaker', () => {
  // The breaker reads Date.now(); only Date is faked, so sockets and timers run as usual.
  beforeEach(() => void vi.useFakeTimers({ toFake: ['Date'] }));
  afterEach(() => void vi.useRealTimers());

  it('after repeated failures, fails at once without asking the wiki; lets a trial through after the cooldown', async () => {
    const guarded = new WikiClient({ ...FAST, breakerThreshold: 2, breakerCooldownMs: 300, resolveOrigin: wiki.resolveOrigin });
    wiki.fail({ kind: 'status', status: 500 });
    for (const title of ['Foo bar', 'AC/DC']) {
      expect(await failure(guarded.fetchArticle('enwiki', title)), `${title}: fails after its retries`).toBeInstanceOf(UpstreamUnavailable);
    }
    const before = wiki.requests.length;
    const open = await failure(guarded.fetchArticle('enwiki', 'Zürich'));
    expect(open, 'open circuit: unavailable').toBeInstanceOf(UpstreamUnavailable);
    expect(open.message, 'says why, naming the project').toMatch(/enwiki.*recent fetches failed; not asking again for 1 s/);
    expect((open as UpstreamUnavailable).retryAfterSeconds, 'tells when to retry').toBe(1);
    expect(wiki.requests.length, 'the wiki was not asked').toBe(before);

    const other = await guarded.fetchArticle('dewiki', 'Zürich').catch((e: unknown) => e);
    expect(other, 'other projects have their own circuit (this one reaches the failing wiki)').toBeInstanceOf(UpstreamUnavailable);
    expect(wiki.requests.length, 'dewiki was asked').toBeGreaterThan(before);

    wiki.heal();
    vi.setSystemTime(Date.now() + 350); // past the cooldown, without waiting for it
    const trial = await guarded.fetchArticle('enwiki', 'Foo bar');
    expect(trial.meta.identifier, 'the trial after the cooldown succeeds').toBe(42);
    const after = await guarded.fetchArticle('enwiki', 'Zürich');
    expect(after.meta.identifier, 'and the circuit is closed again').toBe(44);
  });

  it('a failed trial opens it again, for a full cooldown', async () => {
    const guarded = new WikiClient({ ...FAST, breakerThreshold: 1, breakerCooldownMs: 2000, resolveOrigin: wiki.resolveOrigin });
    wiki.fail({ kind: 'status', status: 500 });
    await failure(guarded.fetchArticle('enwiki', 'Foo bar'));
    vi.setSystemTime(Date.now() + 1500);
    const open = await failure(guarded.fetchArticle('enwiki', 'Foo bar'));
    expect(open.message, 'the time left, rounded up').toContain('not asking again for 1 s');
    vi.setSystemTime(Date.now() + 600);
    const before = wiki.requests.length;
    const trial = await failure(guarded.fetchArticle('enwiki', 'Foo bar'));
    expect((trial as UpstreamUnavailable).retryAfterSeconds, 'the trial reached the wiki and failed there').toBeUndefined();
    expect(wiki.requests.length, 'the wiki was asked').toBeGreaterThan(before);
    const reopened = await failure(guarded.fetchArticle('enwiki', 'Foo bar'));
    expect(reopened.message, 'open again for the whole cooldown').toContain('not asking again for 2 s');
  });

  it('404s do not open it: they prove the wiki is up', async () => {
    const guarded = new WikiClient({ ...FAST, breakerThreshold: 1, resolveOrigin: wiki.resolveOrigin });
    for (let i = 0; i < 3; i++) {
      expect(await failure(guarded.fetchArticle('enwiki', 'No such page')), `404 number ${i + 1}`).toBeInstanceOf(UpstreamNotFound);
    }
    expect(wiki.count('No such page', 'page'), 'each one asked the wiki').toBe(3);
  });
});
