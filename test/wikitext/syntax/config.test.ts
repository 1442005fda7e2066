/**
 * The door completes wikiparser-node's configuration files itself (tree.ts completeConfig) rather
 * than loading the library for its `Parser.getConfig`: both must give the same configuration, on
 * every file the library ships and on the door's own configuration of a wiki.
 */
import { readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Parser from 'wikiparser-node';
import type { ConfigData } from 'wikiparser-node';
import { describe, expect, it } from 'vitest';
import { completeConfig, parserConfig } from '../../../src/engine/wikitext/tree.js';
import { wikiProfile } from '../../../src/engine/wiki/profile.js';

const require = createRequire(import.meta.url);
const folder = join(dirname(require.resolve('wikiparser-node/package.json')), 'config');
const files = readdirSync(folder).filter((name) => name.endsWith('.json') && !name.startsWith('.'));
const load = (name: string): ConfigData => structuredClone(require(join(folder, name))) as ConfigData;

describe('completeConfig', () => {
  it('reads every configuration the library ships (the test is not blind)', () => {
    expect(files).toEqual(expect.arrayContaining(['enwiki.json', 'jawiki.json', 'zhwiki.json', 'default.json']));
  });

  it.each(files)('%s: the configuration Parser.getConfig makes of it', (name) => {
    expect(completeConfig(load(name))).toEqual(Parser.getConfig(load(name)));
  });

  it('a file whose switches are listed only by alias, with <translate>: names filled in, its variable added', () => {
    const data = load('enwiki.json');
    const switches = data.doubleUnderscore as unknown as [string[], string[], Record<string, string>, Record<string, string>];
    switches[0] = [];
    switches[2] = { __TOC__: 'toc', __NOTOC__: 'notoc' };
    data.ext.push('translate');
    const ours = completeConfig(structuredClone(data));
    expect(ours).toEqual(Parser.getConfig(structuredClone(data)));
    expect(ours.doubleUnderscore[0]).toEqual(['__TOC__', '__NOTOC__']);
    expect(ours.variable).toContain('translationlanguage');
  });

  it("the door's configuration of a wiki is complete", () => {
    const config = parserConfig(wikiProfile());
    expect((config as { excludes?: string[] }).excludes).toEqual([]);
    expect(config.doubleUnderscore[0].length).toBeGreaterThan(0);
  });
});
