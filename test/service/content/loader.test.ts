/**
 * The upstream loader (single flight over fetch → parse → save) against the fake wiki.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ArticleSchema } from '../../../src/index.js';
import type { Article } from '../../../src/index.js';
import { UpstreamLoader, UpstreamNotFound, UpstreamUnavailable, WikiClient } from '../../../src/service/content/upstream/index.js';
import { createEngineClient, ParseFailedError, type EngineClient } from '../../../src/service/engine-client.js';
import { FakeWiki } from '../../support/fake-wiki.js';

const HTML = `<!DOCTYPE html><html about="https://en.wikipedia.org/wiki/Special:Redirect/revision/7"><head><meta property="mw:htmlVersion" content="2.8.0"/><base href="//en.wikipedia.org/wiki/"/></head>
<body><section data-mw-section-id="0"><p>Loaded text of the lead.</p></section></body></html>`;

let wiki: FakeWiki;
let client: WikiClient;
/** The service's own parser: the engine client on a real worker thread. */
let engine: EngineClient;
const parseArticle = async (envelope: Record<string, unknown>): Promise<Article> => JSON.parse(await engine.parseEnvelope(envelope)) as Article;

beforeAll(async () => {
  wiki = await FakeWiki.start([
    { title: 'Loaded', html: HTML, id: 7, revision: 7 },
    { title: 'Empty', html: '', id: 8, revision: 8 },
  ]);
  client = new WikiClient({ contact: 'tests', attemptTimeoutMs: 10_000, deadlineMs: 20_000, baseDelayMs: 10, resolveOrigin: wiki.resolveOrigin });
  engine = createEngineClient({ threads: 1 });
});
afterAll(async () => {
  await wiki.close();
  await engine.close();
});
afterEach(() => {
  wiki.heal();
  wiki.requests.length = 0;
});

describe('UpstreamLoader', () => {
  it('50 concurrent loads: one fetch, one save, one Article for all; an aborting caller does not cancel the others', async () => {
    wiki.fail({ kind: 'slow', delayMs: 200 }, 'Loaded');
    const saved: Article[] = [];
    const loader = new UpstreamLoader({ client, parseArticle, save: async (article) => void saved.push(article) });
    const quitter = new AbortController();
    const loads = Array.from({ length: 50 }, (_, i) =>
      loader.load('enwiki', 'Loaded', i === 0 ? { signal: quitter.signal } : {}),
    );
    // While the wiki holds its answer (200 ms): the fetch has started and is not over.
    await wiki.received(2);
    quitter.abort(new Error('first client disconnected'));
    const outcomes = await Promise.allSettled(loads);

    expect(outcomes[0], 'the aborting caller gets its own reason').toEqual({ status: 'rejected', reason: new Error('first client disconnected') });
    const articles = outcomes.slice(1).map((o) => (o.status === 'fulfilled' ? o.value : undefined));
    expect(articles.every((a) => a !== undefined && a === articles[0]), 'the 49 others share one Article').toBe(true);
    expect(ArticleSchema.safeParse(articles[0]).success, 'a valid Article').toBe(true);
    expect(articles[0]?.abstract, 'parsed from the fetched HTML').toBe('Loaded text of the lead.');
    expect(articles[0]?.version?.identifier, 'metadata filled').toBe(7);
    expect([wiki.count('Loaded', 'page'), wiki.count('Loaded', 'html')], 'one fetch per route').toEqual([1, 1]);
    expect(saved.length, 'saved once').toBe(1);
    expect(loader.inFlight, 'nothing left in flight').toBe(0);
  });

  it('a caller whose signal is already aborted starts nothing', async () => {
    const loader = new UpstreamLoader({ client, parseArticle });
    await expect(loader.load('enwiki', 'Loaded', { signal: AbortSignal.abort(new Error('gone')) }), 'rejects').rejects.toThrow('gone');
    expect(wiki.requests.length, 'no request').toBe(0);
  });

  it('passes the typed errors through and fetches again on the next load', async () => {
    const loader = new UpstreamLoader({ client, parseArticle });
    await expect(loader.load('enwiki', 'Missing'), '404').rejects.toBeInstanceOf(UpstreamNotFound);
    await expect(loader.load('enwiki', 'Missing'), '404 again').rejects.toBeInstanceOf(UpstreamNotFound);
    expect(wiki.count('Missing', 'page'), 'a failure is not cached').toBe(2);
  });

  it('HTML the engine cannot use is UpstreamUnavailable naming the project', async () => {
    const loader = new UpstreamLoader({ client, parseArticle });
    const error = await loader.load('enwiki', 'Empty').catch((e: unknown) => e);
    expect(error, 'unavailable').toBeInstanceOf(UpstreamUnavailable);
    expect((error as Error).message, 'names the project and the cause').toMatch(/enwiki.*not HTML/);
  });

  it("any refusal of the engine client (ParseFailedError) is UpstreamUnavailable", async () => {
    const loader = new UpstreamLoader({
      client,
      parseArticle: async () => {
        throw new ParseFailedError('NO_CONTENT', 'the body holds no article text');
      },
    });
    const error = await loader.load('enwiki', 'Loaded').catch((e: unknown) => e);
    expect(error, 'unavailable, so the route answers 502 through the one UpstreamError mapping').toBeInstanceOf(UpstreamUnavailable);
    expect((error as Error).message, 'names the project and the cause').toBe('the enwiki wiki is unavailable: its HTML cannot be used: the body holds no article text (fetching "Loaded")');
  });

  it("the save hook's failure reaches every waiting caller", async () => {
    const loader = new UpstreamLoader({
      client,
      parseArticle,
      save: async () => {
        throw new Error('store is read-only');
      },
    });
    const outcomes = await Promise.allSettled([loader.load('enwiki', 'Loaded'), loader.load('enwiki', 'Loaded')]);
    expect(outcomes.map((o) => o.status), 'both rejected').toEqual(['rejected', 'rejected']);
  });

  it('parses with the parser it is given', async () => {
    let calls = 0;
    const loader = new UpstreamLoader({
      client,
      parseArticle: async (envelope) => {
        calls++;
        return { name: String(envelope['name'] ?? ''), sections: [], infoboxes: [], tables: [], references: [] };
      },
    });
    const article = await loader.load('enwiki', 'Loaded');
    expect([calls, article.name], 'the injected parser ran once, with the envelope').toEqual([1, 'Loaded']);
  });
});
