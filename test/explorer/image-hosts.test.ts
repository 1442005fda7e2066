/**
 * The explorer's image policy (issue 22: a stored or pasted page could make the explorer fetch any
 * https image, a tracking pixel): which hosts are wiki hosts, which an article's images may load
 * from, the page's CSP `img-src`, and the list the served page reads — all from
 * grammar/projects.json, through the grammar loader.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { GRAMMAR } from '../../src/engine/grammar/load.js';
import { hostOfProject } from '../../src/engine/site.js';
import { explorerAssets, PAGE_POLICY } from '../../src/service/explorer/assets.js';
import {
  hostOf,
  imageHostsOf,
  imageSources,
  isWikiHost,
  readHostPatterns,
  WIKI_HOSTS_META,
  wikiHostPatterns,
  WIKIMEDIA_FILE_HOST,
} from '../../src/service/explorer/image-hosts.js';

const WIKI_HOSTS = wikiHostPatterns(GRAMMAR.projects);

describe('wiki hosts', () => {
  it('every family and special wiki of the grammar is one; look-alikes are not', () => {
    for (const code of ['enwiki', 'frwiktionary', 'zh_min_nanwiki', 'simplewiki', 'dewikivoyage', 'commonswiki', 'wikidatawiki', 'mediawikiwiki']) {
      expect(isWikiHost(WIKI_HOSTS, hostOfProject(code)!), code).toBe(true);
    }
    for (const host of ['evil.example', 'wikipedia.org', '.wikipedia.org', 'en.wikipedia.org.evil.example', 'a.b.wikipedia.org', 'evilwikipedia.org', 'en.wikipedia.org.', 'upload.wikimedia.org', '-en.wikipedia.org']) {
      expect(isWikiHost(WIKI_HOSTS, host), host).toBe(false);
    }
  });

  it('an article loads images from its own wiki and the file host only', () => {
    expect([...imageHostsOf(WIKI_HOSTS, 'https://de.wikipedia.org/wiki/Beispiel')]).toEqual(['de.wikipedia.org', WIKIMEDIA_FILE_HOST]);
    expect([...imageHostsOf(WIKI_HOSTS, '//commons.wikimedia.org/wiki/File:X.jpg')]).toEqual(['commons.wikimedia.org', WIKIMEDIA_FILE_HOST]);
    expect([...imageHostsOf(WIKI_HOSTS, 'https://wiki.example.org/wiki/Page')], 'an unknown wiki').toEqual([]);
    expect([...imageHostsOf(WIKI_HOSTS, 'http://de.wikipedia.org/wiki/Beispiel')], 'not https').toEqual([]);
    expect([...imageHostsOf(WIKI_HOSTS, undefined)]).toEqual([]);
    expect([...imageHostsOf([], 'https://de.wikipedia.org/wiki/Beispiel')], 'a page told of no wiki hosts loads nothing').toEqual([]);
  });

  it('hostOf takes https URLs without credentials or a port only', () => {
    expect(hostOf('https://Upload.Wikimedia.org/a.jpg')).toBe('upload.wikimedia.org');
    expect(hostOf('//upload.wikimedia.org/a.jpg')).toBe('upload.wikimedia.org');
    for (const url of ['http://upload.wikimedia.org/a.jpg', 'https://user@upload.wikimedia.org/a.jpg', 'https://upload.wikimedia.org:444/a.jpg', 'data:image/png;base64,AA', 'not a url']) {
      expect(hostOf(url), url).toBeUndefined();
    }
  });
});

describe('the page policy and the page', () => {
  it('img-src is this origin, data: and the wiki hosts of the grammar, never https: at large', () => {
    const imgSrc = PAGE_POLICY.split('; ').find((d) => d.startsWith('img-src '))!.split(' ').slice(1);
    expect(imgSrc, 'no scheme-wide source').not.toContain('https:');
    expect(imgSrc).toEqual([
      "'self'",
      'data:',
      `https://${WIKIMEDIA_FILE_HOST}`,
      ...GRAMMAR.projects.families.map((f) => `https://${f.host.replace('{lang}', '*')}`),
      ...GRAMMAR.projects.special.map((s) => `https://${s.host}`),
    ]);
    expect(imgSrc.slice(2)).toEqual(imageSources(WIKI_HOSTS));
  });

  it('the served page carries the same list in its meta, for the renderer', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wikistruct-explorer-meta-'));
    const app = Fastify();
    try {
      writeFileSync(join(dir, 'index.html'), `<!DOCTYPE html><html><head><meta name="${WIKI_HOSTS_META}" content=""></head><body></body></html>`);
      await app.register(explorerAssets, { dir });
      const page = await app.inject({ method: 'GET', url: '/' });
      const content = /<meta name="wikistruct-wiki-hosts" content="([^"]*)">/.exec(page.body)?.[1];
      expect(readHostPatterns(content)).toEqual(WIKI_HOSTS);
      expect(WIKI_HOSTS).toContain('*.wikipedia.org');
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
