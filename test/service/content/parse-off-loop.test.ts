/**
 * Nothing parses on the event loop: while a large `POST /v2/parse` is being parsed (on the
 * engine client's worker thread), the same process answers `/healthz` over its socket. Asserted
 * on order, never on time: every health check is answered before the parse is, which cannot
 * happen when the parse holds the event loop (the server could not even read the health check).
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { createEngineClient, type EngineClient } from '../../../src/service/engine-client.js';
import { BACKENDS, type TestDatabase } from '../helpers/backends.js';
import { addUser, startTestServer, type TestServer } from '../helpers/harness.js';
import { logIn } from './support.js';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/** A Parsoid-like page of about 6 MB: a lead and 2,500 sections of linked paragraphs. */
function largePage(): string {
  const sections: string[] = [];
  for (let i = 1; i <= 2_500; i++) {
    const paragraph = `<p>Paragraph ${i} with a <a rel="mw:WikiLink" href="./Link_${i}">link</a> and <b>bold</b> and <i>italic</i> text. ${'Filler words for the section. '.repeat(40)}</p>`;
    sections.push(`<section data-mw-section-id="${i}"><h2 id="S${i}">Section ${i}</h2>${paragraph}${paragraph}</section>`);
  }
  return `<!DOCTYPE html><html><head><base href="//en.wikipedia.org/wiki/"/></head><body><section data-mw-section-id="0"><p>The lead.</p></section>${sections.join('')}</body></html>`;
}

const backend = BACKENDS[0]!;

describe('the engine client keeps parsing off the event loop', () => {
  let database: TestDatabase;
  let server: TestServer;
  let real: EngineClient;
  let token: string;
  /** Resolved when the route hands the large page to the engine client. */
  let handedOver: Promise<void>;

  beforeAll(async () => {
    database = await backend.open();
    real = createEngineClient({ threads: 1 });
    let handed!: () => void;
    handedOver = new Promise((resolve) => (handed = resolve));
    // The real client on a real worker thread; only watched, so the test knows the parse started.
    const engine: EngineClient = {
      threads: real.threads,
      parseEnvelope: (envelope, options) => real.parseEnvelope(envelope, options),
      parseWikitext: (wikitext, meta, options) => real.parseWikitext(wikitext, meta, options),
      parseHtml: (html, options) => {
        handed();
        return real.parseHtml(html, options);
      },
      pageLinks: (html, base) => real.pageLinks(html, base),
      close: () => real.close(),
    };
    server = await startTestServer(database.db, {
      outboxDir: join(database.dir, 'outbox'),
      offline: true,
      engine,
      explorer: { maxInputBytes: 16 * 1024 * 1024, rateLimit: { burst: 100, perSecond: 100 } },
    });
    const user = await addUser(database.db, server.clock);
    token = (await logIn(server, user.username, user.password)).accessToken;
  });
  afterAll(async () => {
    await server?.close();
    await real?.close();
    await database?.dispose();
  });

  test('/healthz is answered, three times over, while a large /v2/parse is in flight', async () => {
    const order: string[] = [];
    const parsed = fetch(`${server.url}/v2/parse`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ html: largePage() }),
    }).then(async (response) => {
      order.push('parse');
      return { status: response.status, article: (await response.json()) as { sections?: unknown[] } };
    });
    await handedOver;
    for (let i = 0; i < 3; i++) {
      const health = await fetch(`${server.url}/healthz`);
      expect(health.status, 'healthy').toBe(200);
      order.push('healthz');
    }
    const { status, article } = await parsed;
    expect(status, 'the large page parsed').toBe(200);
    expect(article.sections?.length, 'every section of it').toBe(2_501);
    expect(order, 'every health check answered before the parse finished').toEqual(['healthz', 'healthz', 'healthz', 'parse']);
  });
});
