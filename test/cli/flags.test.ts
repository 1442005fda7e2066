/**
 * The flag-value readers shared by `convert` and `worker` (src/cli/flags.ts) and the queue
 * connection both read the same way (src/cli/queue-flags.ts).
 */
import { describe, expect, it } from 'vitest';
import { byteSize, duration, seconds, wholeNumber } from '../../src/cli/flags.js';
import { queueConnection, queueSettings } from '../../src/cli/queue-flags.js';
import { UsageError } from '../../src/io/usage-error.js';

describe('flag values', () => {
  it('wholeNumber: digits only, within the bounds, the flag named in the refusal', () => {
    expect(wholeNumber('--jobs', '4', 1, 256)).toBe(4);
    expect(() => wholeNumber('--jobs', '4.5', 1, 256)).toThrow('--jobs takes a whole number; got "4.5"');
    expect(() => wholeNumber('--jobs', '-1', 1, 256)).toThrow(UsageError);
    expect(() => wholeNumber('--max-stalled', '101', 0, 100)).toThrow('--max-stalled must be between 0 and 100; got 101');
    expect(wholeNumber('--max-stalled', '0', 0, 100)).toBe(0);
  });

  it('duration: a whole number with a unit; bare seconds, a minimum and "off" as the flag allows', () => {
    const DAY = 86_400_000;
    const maxAge = { bareSeconds: true, minMs: 0, off: false, examples: '90s, 30m, 12h, 7d' };
    const every = { bareSeconds: false, minMs: 60_000, off: true, examples: '30m, 24h, 7d' };
    expect(['90', '90s', '1500ms', '30m', '12h', '7d', '0'].map((v) => duration('--max-age', v, maxAge))).toEqual([90_000, 90_000, 1500, 1_800_000, DAY / 2, 7 * DAY, 0]);
    expect(['30m', '24h', '7d', '90s', ' 2H '].map((v) => duration('--snapshots-every', v, every))).toEqual([1_800_000, DAY, 7 * DAY, 90_000, 7_200_000]);
    expect(['off', '0', ' OFF '].map((v) => duration('--snapshots-every', v, every))).toEqual([undefined, undefined, undefined]);
    for (const bad of ['', 'h', '1.5h', '-1h', '24 hours', 'off']) expect(() => duration('--max-age', bad, maxAge), bad).toThrow(UsageError);
    expect(() => duration('--max-age', '3 weeks', maxAge)).toThrow('--max-age takes a duration: a whole number of seconds, or with a unit (90s, 30m, 12h, 7d); got "3 weeks"');
    expect(() => duration('--snapshots-every', '24', every)).toThrow('--snapshots-every takes a duration: a whole number with a unit (30m, 24h, 7d), or "off"; got "24"');
    expect(() => duration('--snapshots-every', '10s', every)).toThrow('--snapshots-every must be at least a minute; got "10s"');
  });

  it('seconds: above 0 by default, at least the minimum when one is given', () => {
    expect(seconds('--redis-timeout', '1.5')).toBe(1.5);
    expect(() => seconds('--redis-timeout', '0')).toThrow('--redis-timeout takes a number of seconds above 0; got "0"');
    expect(() => seconds('--lock-duration', ' ')).toThrow(UsageError);
    expect(seconds('--checkpoint-interval', '0', 0), 'a zero minimum allows 0').toBe(0);
    expect(() => seconds('--checkpoint-interval', '-1', 0)).toThrow('--checkpoint-interval takes a number of seconds; got "-1"');
    expect(() => seconds('--progress-interval', '0.0001', 0.001)).toThrow(/above 0/);
  });

  it('byteSize: bytes with an optional binary unit', () => {
    expect(byteSize('--chunk-size', '32M', '32M')).toBe(32 * 1024 * 1024);
    expect(byteSize('--chunk-size', '1.5k', '32M')).toBe(1536);
    expect(byteSize('--chunk-size', '2GiB', '32M')).toBe(2 * 1024 ** 3);
    expect(() => byteSize('--shard-size', 'big', '64M')).toThrow('--shard-size takes a size in bytes, e.g. 1048576 or 64M; got "big"');
    expect(() => byteSize('--chunk-size', '0', '32M')).toThrow('--chunk-size must be at least 1 byte; got "0"');
  });

  it('the queue connection: worker and convert read --queue and --queue-name the same way', () => {
    const worker = queueConnection('redis://h:6380/2', 'mine');
    const convert = queueSettings({ queue: 'redis://h:6380/2', 'queue-name': 'mine' });
    expect(convert).toMatchObject(worker);
    expect(worker.queueName).toBe('mine');
    expect(queueConnection('redis://h:1', undefined).queueName, 'the default name').toBe('wikistruct-convert');
  });
});
