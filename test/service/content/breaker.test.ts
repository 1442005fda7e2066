import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../../src/service/content/upstream/breaker.js';

function breaker(threshold = 3, cooldownMs = 1000): { b: CircuitBreaker; clock: { now: number } } {
  const clock = { now: 0 };
  return { b: new CircuitBreaker({ threshold, cooldownMs }, () => clock.now), clock };
}

describe('CircuitBreaker', () => {
  it('opens after `threshold` failures in a row, for the cooldown', () => {
    const { b, clock } = breaker();
    b.failed('enwiki');
    b.failed('enwiki');
    expect(b.admit('enwiki'), 'two failures: still closed').toEqual({ allowed: true });
    b.failed('enwiki');
    clock.now = 400;
    expect(b.admit('enwiki'), 'three: open, with the time left').toEqual({ allowed: false, retryInMs: 600 });
    expect(b.admit('dewiki'), 'other keys unaffected').toEqual({ allowed: true });
  });

  it('a success resets the count', () => {
    const { b } = breaker();
    b.failed('k');
    b.failed('k');
    b.succeeded('k');
    b.failed('k');
    expect(b.admit('k'), 'not three in a row').toEqual({ allowed: true });
  });

  it('after the cooldown lets one trial through; its failure reopens, its success closes', () => {
    const { b, clock } = breaker(1, 1000);
    b.failed('k');
    clock.now = 1000;
    expect(b.admit('k'), 'trial admitted').toEqual({ allowed: true });
    expect(b.admit('k').allowed, 'only one trial at a time').toBe(false);
    b.failed('k');
    clock.now = 1500;
    expect(b.admit('k'), 'failed trial reopens for a full cooldown').toEqual({ allowed: false, retryInMs: 500 });
    clock.now = 2000;
    expect(b.admit('k').allowed, 'next trial').toBe(true);
    b.succeeded('k');
    expect([b.admit('k').allowed, b.admit('k').allowed], 'closed: everyone admitted').toEqual([true, true]);
  });

  it('an abandoned trial lets another start', () => {
    const { b, clock } = breaker(1, 10);
    b.failed('k');
    clock.now = 10;
    expect(b.admit('k').allowed, 'trial').toBe(true);
    b.abandoned('k');
    expect(b.admit('k').allowed, 'another trial').toBe(true);
  });
});
