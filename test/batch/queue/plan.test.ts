/**
 * Shard planning and flag checking, without Redis: NDJSON ranges tile the file exactly, each cut
 * just after a newline, each knowing its first line number; bad --queue values are precise usage errors.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/batch/options.js';
import { parseRedisUrl } from '../../../src/batch/queue/connection.js';
import { queueSettings } from '../../../src/cli/queue-flags.js';
import { lineRanges } from '../../../src/batch/queue/plan.js';
import { removeTempDirs, tempDir } from '../fixtures.js';

afterAll(removeTempDirs);

describe('lineRanges', () => {
  const dir = tempDir('queue-plan');
  it('tiles the file: contiguous, cut after newlines, first line numbers counted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ maxLength: 40 }).map((s) => s.replace(/\n/g, '')), { maxLength: 60 }), fc.boolean(), fc.integer({ min: 1, max: 200 }), async (lines, trailing, shardBytes) => {
        const text = lines.join('\n') + (trailing && lines.length > 0 ? '\n' : '');
        const file = join(dir, 'f.ndjson');
        writeFileSync(file, text);
        const bytes = Buffer.from(text);
        const ranges = await lineRanges(file, shardBytes);
        let at = 0;
        for (const [i, r] of ranges.entries()) {
          expect(r.start, 'contiguous').toBe(at);
          expect(r.end).toBeGreaterThan(r.start);
          if (i < ranges.length - 1) {
            expect(bytes[r.end - 1], 'a cut falls just after a newline').toBe(10);
            expect(r.end - r.start, 'all but the last range reach the shard size').toBeGreaterThanOrEqual(shardBytes);
          }
          const newlinesBefore = bytes.subarray(0, r.start).filter((b) => b === 10).length;
          expect(r.firstLine, 'first line number').toBe(newlinesBefore + 1);
          at = r.end;
        }
        expect(at, 'the whole file').toBe(bytes.length);
      }),
      { numRuns: 150 },
    );
  });
});

describe('queue flags', () => {
  it('reads redis://HOST:PORT[/DB]', () => {
    expect(parseRedisUrl('redis://10.0.0.5:6380/3')).toMatchObject({ host: '10.0.0.5', port: 6380, db: 3 });
    expect(parseRedisUrl('redis://queue-host')).toMatchObject({ host: 'queue-host', port: 6379, db: 0 });
  });

  it.each([
    ['localhost:6379', /--queue takes redis:\/\/HOST:PORT\[\/DB\]/],
    ['http://localhost:6379', /the scheme "http:"/],
    ['redis://localhost:6379/x', /the database must be a number/],
  ])('refuses --queue %s precisely', (url, message) => {
    expect(() => parseRedisUrl(url)).toThrow(UsageError);
    expect(() => parseRedisUrl(url)).toThrow(message);
  });

  it('refuses queue flags without --queue, and bad values, naming the flag', () => {
    expect(() => queueSettings({ 'shard-size': '4M' })).toThrow('--shard-size needs --queue redis://HOST:PORT');
    expect(() => queueSettings({ queue: 'redis://h:1', 'shard-size': 'big' })).toThrow(/--shard-size takes a size in bytes/);
    expect(() => queueSettings({ queue: 'redis://h:1', 'queue-name': 'a:b' })).toThrow(/--queue-name takes letters/);
    expect(queueSettings({ queue: 'redis://h:1', 'shard-size': '4M' })?.shardBytes).toBe(4 * 1024 * 1024);
  });
});
