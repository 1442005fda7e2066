/**
 * The explorer's image policy (issue 22: a stored or pasted page could make the explorer fetch any
 * https image, a tracking pixel): which hosts are wiki hosts, which an article's images may load
 * from, and the page's CSP `img-src`, built from grammar/projects.json.
 */
import { describe, expect, it } from 'vitest';
import { GRAMMAR } from '../../src/engine/grammar/load.js';
import { hostOfProject } from '../../src/engine/site.js';
import { PAGE_POLICY } from '../../src/service/explorer/assets.js';
import { hostOf, imageHostsOf, isWikiHost, wikiImageSources, WIKIMEDIA_FILE_HOST } from '../../src/service/explorer/image-hosts.js';

describe('wiki hosts', () => {
  it('every family and special wiki of the grammar is one; look-alikes are not', () => {
    for (const code of ['enwiki', 'frwiktionary', 'zh_min_nanwiki', 'simplewiki', 'dewikivoyage', 'commonswiki', 'wikidatawiki', 'mediawikiwiki']) {
      expect(isWikiHost(hostOfProject(code)!), code).toBe(true);
    }
    for (const host of ['evil.example', 'wikipedia.org', '.wikipedia.org', 'en.wikipedia.org.evil.example', 'a.b.wikipedia.org', 'evilwikipedia.org', 'en.wikipedia.org.', 'upload.wikimedia.org', '-en.wikipedia.org']) {
      expect(isWikiHost(host), host).toBe(false);
    }
  });

  it('an article loads images from its own wiki and the file host only', () => {
    expect([...imageHostsOf('https://de.wikipedia.org/wiki/Beispiel')]).toEqual(['de.wikipedia.org', WIKIMEDIA_FILE_HOST]);
    expect([...imageHostsOf('//commons.wikimedia.org/wiki/File:X.jpg')]).toEqual(['commons.wikimedia.org', WIKIMEDIA_FILE_HOST]);
    expect([...imageHostsOf('https://wiki.example.org/wiki/Page')], 'an unknown wiki').toEqual([]);
    expect([...imageHostsOf('http://de.wikipedia.org/wiki/Beispiel')], 'not https').toEqual([]);
    expect([...imageHostsOf(undefined)]).toEqual([]);
  });

  it('hostOf takes https URLs without credentials or a port only', () => {
    expect(hostOf('https://Upload.Wikimedia.org/a.jpg')).toBe('upload.wikimedia.org');
    expect(hostOf('//upload.wikimedia.org/a.jpg')).toBe('upload.wikimedia.org');
    for (const url of ['http://upload.wikimedia.org/a.jpg', 'https://user@upload.wikimedia.org/a.jpg', 'https://upload.wikimedia.org:444/a.jpg', 'data:image/png;base64,AA', 'not a url']) {
      expect(hostOf(url), url).toBeUndefined();
    }
  });
});

describe('the page policy', () => {
  it('img-src is this origin, data: and the wiki hosts of the grammar, never https: at large', () => {
    const imgSrc = PAGE_POLICY.split('; ').find((d) => d.startsWith('img-src '))!.split(' ').slice(1);
    expect(imgSrc.slice(0, 2)).toEqual(["'self'", 'data:']);
    expect(imgSrc, 'no scheme-wide source').not.toContain('https:');
    expect(imgSrc).toEqual(["'self'", 'data:', ...wikiImageSources()]);
    const expected = [
      `https://${WIKIMEDIA_FILE_HOST}`,
      ...GRAMMAR.projects.families.map((f) => `https://${f.host.replace('{lang}', '*')}`),
      ...GRAMMAR.projects.special.map((s) => `https://${s.host}`),
    ];
    expect(wikiImageSources()).toEqual(expected);
  });
});
