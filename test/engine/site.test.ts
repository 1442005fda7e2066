import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostOfProject, projectOfHost, resolveHref, siteFromUrl } from '../../src/engine/site.js';

describe('sites and URLs (site.ts, grammar/projects.json)', () => {
  it('maps hosts to project codes and languages', () => {
    expect(projectOfHost('en.wikipedia.org')).toEqual({ project: 'enwiki', language: 'en' });
    expect(projectOfHost('fr.wiktionary.org')).toEqual({ project: 'frwiktionary', language: 'fr' });
    expect(projectOfHost('simple.wikipedia.org'), 'Simple English is English').toEqual({ project: 'simplewiki', language: 'en' });
    expect(projectOfHost('zh-min-nan.wikipedia.org')).toEqual({ project: 'zh_min_nanwiki', language: 'zh-min-nan' });
    expect(projectOfHost('commons.wikimedia.org')).toEqual({ project: 'commonswiki' });
    expect(projectOfHost('example.org')).toBeUndefined();
    expect(projectOfHost('a.b.wikipedia.org'), 'no nested subdomains').toBeUndefined();
  });

  it('maps project codes back to hosts', () => {
    expect(hostOfProject('enwiki')).toBe('en.wikipedia.org');
    expect(hostOfProject('frwiktionary')).toBe('fr.wiktionary.org');
    expect(hostOfProject('enwikiversity')).toBe('en.wikiversity.org');
    expect(hostOfProject('wikidatawiki')).toBe('www.wikidata.org');
    expect(hostOfProject('nonsense')).toBeUndefined();
  });

  it('round-trips host → project → host for every family', () => {
    const families = ['wikipedia', 'wiktionary', 'wikibooks', 'wikinews', 'wikiquote', 'wikisource', 'wikiversity', 'wikivoyage'];
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z]{2,3}(-[a-z]{2,4})?$/), fc.constantFrom(...families), (lang, family) => {
        const host = `${lang}.${family}.org`;
        const known = projectOfHost(host);
        expect(known).toBeDefined();
        expect(hostOfProject(known!.project)).toBe(host);
      }),
    );
  });

  it('resolves every kind of href to an absolute https URL, or nothing', () => {
    const site = siteFromUrl('//en.wikipedia.org/wiki/');
    expect(resolveHref('./Albert_Einstein', site), 'Parsoid wiki link').toBe('https://en.wikipedia.org/wiki/Albert_Einstein');
    expect(resolveHref('/wiki/Albert_Einstein', site), 'rendered-page wiki link').toBe('https://en.wikipedia.org/wiki/Albert_Einstein');
    expect(resolveHref('//upload.wikimedia.org/a.jpg', site), 'protocol-relative').toBe('https://upload.wikimedia.org/a.jpg');
    expect(resolveHref('http://example.org/x', site), 'an external link keeps its scheme').toBe('http://example.org/x');
    expect(resolveHref('../w/index.php?title=X', site)).toBe('https://en.wikipedia.org/w/index.php?title=X');
    expect(resolveHref('#cite_note-1', site), 'fragments are not links').toBeUndefined();
    expect(resolveHref('mailto:a@b.c', site), 'other schemes are dropped').toBeUndefined();
    expect(resolveHref('./X', undefined), 'relative without a site cannot be resolved').toBeUndefined();
    expect(resolveHref('', site)).toBeUndefined();
  });
});
