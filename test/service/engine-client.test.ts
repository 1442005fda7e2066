/**
 * The service's engine client on real worker threads: each of its doors gives the bytes the
 * engine itself gives (the library's `parse`, `parseWikitext`, `parseEnvelope`, serialised), a
 * record's own options reach the worker (source positions, an input limit), the engine's
 * refusals come back typed with its code, and the pool starts one worker and adds the others only
 * when the running ones are busy.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parse, parseEnvelope, parseWikitext } from '../../src/index.js';
import { createEngineClient, ParseFailedError, type EngineClient } from '../../src/service/engine-client.js';
import { WorkerPool } from '../../src/workers/pool.js';
import { envelope, pageHtml } from './content/support.js';

const WIKITEXT = "'''Foo''' is a [[bar]].<ref>A source.</ref>\n\n== History ==\nText.\n\n== References ==\n<references/>";

describe('the engine client', () => {
  let engine: EngineClient;
  beforeAll(() => {
    engine = createEngineClient({ threads: 1 });
  });
  afterAll(() => engine.close());

  test('each door gives the bytes the engine gives', async () => {
    const html = pageHtml('enwiki', 'Albert Einstein', 10);
    expect(await engine.parseHtml(html), 'HTML').toBe(JSON.stringify(parse(html)));
    expect(await engine.parseHtml(html, { sourcePositions: true }), 'HTML with source positions').toBe(JSON.stringify(parse(html, { sourcePositions: true })));
    expect(await engine.parseHtml(html, { sourcePositions: true }), 'the hints are there').toContain('"source":{"element":');
    const meta = { name: 'Foo', project: 'enwiki', revision: 3 };
    expect(await engine.parseWikitext(WIKITEXT, meta), 'wikitext').toBe(JSON.stringify(parseWikitext(WIKITEXT, meta)));
    const env = envelope({ project: 'frwiki', language: 'fr', title: 'Albert Einstein', revision: 12 });
    expect(await engine.parseEnvelope(env), 'an envelope').toBe(JSON.stringify(parseEnvelope(env)));
  });

  test("a record's own input limit, and the engine's refusals with their codes", async () => {
    const refusal = (promise: Promise<string>) => promise.then(() => undefined, (error: unknown) => error);
    const tooLarge = await refusal(engine.parseHtml(`<p>${'x'.repeat(2_000)}</p>`, { maxInputBytes: 1_000 }));
    expect(tooLarge, 'typed').toBeInstanceOf(ParseFailedError);
    expect((tooLarge as ParseFailedError).code, 'the engine code').toBe('INPUT_TOO_LARGE');
    expect((await refusal(engine.parseWikitext('x'.repeat(2_000), { name: 'X', project: 'enwiki' }, { maxInputBytes: 1_000 })) as ParseFailedError).code, 'wikitext too').toBe('INPUT_TOO_LARGE');
    expect((await refusal(engine.parseHtml('just text')) as ParseFailedError).code, 'not HTML').toBe('NOT_HTML');
    expect((await refusal(engine.parseEnvelope({ article_body: {} })) as ParseFailedError).code, 'an envelope without a body').toBe('INVALID_INPUT');
  });
});

describe('the pool starts small', () => {
  test('one worker at first; a second only when the first is busy, never more than the size', async () => {
    const pool = new WorkerPool(2, { allPages: true }, { initial: 1 });
    try {
      expect(pool.started, 'one at start').toBe(1);
      const payload = () => ({ kind: 'html' as const, bytes: new TextEncoder().encode(pageHtml('enwiki', 'Page', 1)) });
      const first = await pool.run(payload());
      expect([first.status, pool.started], 'one record: the first worker did it alone').toEqual(['ok', 1]);
      const outcomes = await Promise.all([pool.run(payload()), pool.run(payload()), pool.run(payload()), pool.run(payload())]);
      expect(outcomes.every((o) => o.status === 'ok'), 'all converted').toBe(true);
      expect(pool.started, 'busy: the second worker was started, and no third').toBe(2);
    } finally {
      await pool.close();
    }
  });
});
