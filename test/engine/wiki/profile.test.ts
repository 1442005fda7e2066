/**
 * wikiProfile on real wikis: what MediaWiki and Wikimedia's configuration say each wiki calls its
 * namespaces, image options and switches (checked by hand against ../shared/data/README.md's spot
 * checks and the corpus siteinfo files), a siteinfo overriding the generated data, and wikis and
 * languages nobody listed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { wikiDbNames } from '../../../src/engine/wiki/data.js';
import { namespaceKey, profileForPage, wikiProfile } from '../../../src/engine/wiki/profile.js';
import { parseSiteinfo } from '../../../src/engine/wiki/siteinfo.js';
import { wikitextCorpusDir } from '../../../scripts/conformance/wikitext-corpus.js';

const folder = wikitextCorpusDir();

describe('wikiProfile: namespaces', () => {
  it('dewiki: Datei, with Bild, Image and File as aliases, in any case and with _', () => {
    const de = wikiProfile({ project: 'dewiki' });
    expect(de.language).toBe('de');
    expect(de.host).toBe('de.wikipedia.org');
    for (const prefix of ['Datei', 'datei', 'Bild', 'BILD', 'Image', 'File', ' Datei ']) expect(de.namespaceOf(prefix), prefix).toBe(6);
    expect(de.namespaceNames(6)[0]).toBe('Datei');
    expect(de.namespaceNames(6)).toEqual(expect.arrayContaining(['Datei', 'Bild', 'Image', 'File']));
    expect(de.namespaceOf('Kategorie')).toBe(14);
    expect(de.namespaceOf('Vorlage')).toBe(10);
    expect(de.namespaceOf('Benutzer_Diskussion')).toBe(3);
    expect(de.namespaceOf('Benutzerin'), 'gender form').toBe(2);
    expect(de.namespaceOf('Portal'), 'dewiki extra namespace').toBe(100);
    expect(de.namespaceOf('WP'), 'dewiki alias').toBe(4);
    expect(de.namespaceNames(4)[0], 'meta namespace').toBe('Wikipedia');
    expect(de.namespaceOf('Berlin')).toBeUndefined();
    expect(de.namespaceOf('')).toBeUndefined();
  });

  it('jawiki: namespace 14 is Category there, カテゴリ an alias; 10 is Template, テンプレート an alias', () => {
    const ja = wikiProfile({ project: 'jawiki' });
    expect(ja.namespaceNames(14)[0]).toBe('Category');
    expect(ja.namespaceOf('カテゴリ')).toBe(14);
    expect(ja.namespaceNames(10)[0]).toBe('Template');
    expect(ja.namespaceOf('テンプレート')).toBe(10);
    expect(ja.namespaceOf('ファイル')).toBe(6);
    expect(ja.namespaceOf('画像')).toBe(6);
    expect(ja.namespaceOf('プロジェクト'), 'jawiki extra namespace').toBe(102);
  });

  it('ruwiki: Шаблон, Категория, Файл, and the wiki’s short aliases', () => {
    const ru = wikiProfile({ project: 'ruwiki' });
    expect(ru.namespaceNames(10)[0]).toBe('Шаблон');
    expect(ru.namespaceOf('шаблон')).toBe(10);
    expect(ru.namespaceOf('Ш')).toBe(10);
    expect(ru.namespaceOf('К')).toBe(14);
    expect(ru.namespaceOf('Изображение')).toBe(6);
    expect(ru.namespaceOf('Участница')).toBe(2);
  });

  it('right-to-left languages and English names on every wiki', () => {
    for (const project of ['arwiki', 'hewiki', 'fawiki', 'urwiki']) {
      const p = wikiProfile({ project });
      expect(p.dir, project).toBe('rtl');
      expect(p.namespaceOf('File'), project).toBe(6);
      expect(p.namespaceOf('Category'), project).toBe(14);
    }
    expect(wikiProfile({ project: 'arwiki' }).namespaceNames(6)[0]).toBe('ملف');
    expect(wikiProfile({ project: 'hewiki' }).namespaceNames(14)[0]).toBe('קטגוריה');
    expect(wikiProfile({ project: 'dewiki' }).dir).toBe('ltr');
  });

  it('case rule and hosts of the configuration', () => {
    expect(wikiProfile({ project: 'enwiki' }).capitalLinks).toBe(true);
    expect(wikiProfile({ project: 'enwiktionary' }).capitalLinks).toBe(false);
    expect(wikiProfile({ project: 'be_x_oldwiki' }).host).toBe('be-tarask.wikipedia.org');
    expect(wikiProfile({ project: 'be_x_oldwiki' }).language).toBe('be-tarask');
    expect(wikiProfile({ project: 'simplewiki' }).language).toBe('en');
    expect(wikiProfile({ project: 'nowiki' }).language).toBe('nb');
    expect(wikiProfile({ project: 'commonswiki' }).host).toBe('commons.wikimedia.org');
  });
});

describe('wikiProfile: magic words', () => {
  it('dewiki: mini is a thumbnail, hochkant=1.2 upright, 200px a width, links a left', () => {
    const de = wikiProfile({ project: 'dewiki' });
    expect(de.imageOption('mini')).toEqual({ option: 'thumbnail' });
    expect(de.imageOption('thumb')).toEqual({ option: 'thumbnail' });
    expect(de.imageOption('hochkant=1.2')).toEqual({ option: 'upright', value: '1.2' });
    expect(de.imageOption('hochkant')).toEqual({ option: 'upright' });
    expect(de.imageOption('200px')).toEqual({ option: 'width', value: '200' });
    expect(de.imageOption('200x100px')).toEqual({ option: 'width', value: '200x100' });
    expect(de.imageOption('links')).toEqual({ option: 'left' });
    expect(de.imageOption('alternativtext=Ein Bild')).toEqual({ option: 'alt', value: 'Ein Bild' });
    expect(de.imageOption('Mini'), 'image options are case-sensitive').toBeUndefined();
    expect(de.imageOption('Das Brandenburger Tor')).toBeUndefined();
    expect(de.imageOption('fünfpx'), 'a width must be one').toBeUndefined();
  });

  it('jawiki: サムネイル, 250ピクセル, 右; bnwiki থাম্ব; hywiki մինի', () => {
    const ja = wikiProfile({ project: 'jawiki' });
    expect(ja.imageOption('サムネイル')).toEqual({ option: 'thumbnail' });
    expect(ja.imageOption('250ピクセル')).toEqual({ option: 'width', value: '250' });
    expect(ja.imageOption('右')).toEqual({ option: 'right' });
    expect(wikiProfile({ project: 'bnwiki' }).imageOption('থাম্ব')).toEqual({ option: 'thumbnail' });
    expect(wikiProfile({ project: 'hywiki' }).imageOption('մինի')).toEqual({ option: 'thumbnail' });
  });

  it('redirect words, behaviour switches, DEFAULTSORT', () => {
    const de = wikiProfile({ project: 'dewiki' });
    expect(de.redirectWords).toEqual(['#WEITERLEITUNG', '#REDIRECT']);
    expect(de.behaviourSwitch('__KEIN_INHALTSVERZEICHNIS__')).toBe('notoc');
    expect(de.behaviourSwitch('__notoc__'), 'notoc is matched in any case').toBe('notoc');
    expect(de.behaviourSwitch('__NICHTS__')).toBeUndefined();
    expect(de.magicWordId('SORTIERUNG')).toBe('defaultsort');
    expect(de.magicWordId('DEFAULTSORT:')).toBe('defaultsort');
    const ja = wikiProfile({ project: 'jawiki' });
    expect(ja.behaviourSwitch('__目次非表示__')).toBe('notoc');
    expect(ja.magicWordId('デフォルトソート')).toBe('defaultsort');
    expect(ja.magicWord('redirect')).toContain('#転送');
  });
});

describe('wikiProfile: a siteinfo wins, a wiki nobody listed still works', () => {
  const dump = parseSiteinfo(`<siteinfo><sitename>Wikipedia</sitename><dbname>xywiki</dbname>
    <base>https://xy.example.org/wiki/Main</base><case>case-sensitive</case><namespaces>
    <namespace key="6" case="case-sensitive">Imej</namespace><namespace key="14" case="case-sensitive">Kumpulan</namespace>
    </namespaces></siteinfo>`);

  it('takes the siteinfo’s names, host and case rule over the generated data', () => {
    const p = wikiProfile({ siteinfo: dump });
    expect(p.project).toBe('xywiki');
    expect(p.host).toBe('xy.example.org');
    expect(p.siteName).toBe('Wikipedia');
    expect(p.capitalLinks).toBe(false);
    expect(p.namespaceNames(6)[0]).toBe('Imej');
    expect(p.namespaceOf('kumpulan')).toBe(14);
    expect(p.namespaceOf('File'), 'English names still').toBe(6);
    expect(wikiProfile({ siteinfo: dump }), 'kept per siteinfo object').toBe(p);
  });

  it('puts the siteinfo’s name first even where the generated data has it as an alias', () => {
    const site = parseSiteinfo('<siteinfo><dbname>dewiki</dbname><namespaces><namespace key="6">Bild</namespace></namespaces></siteinfo>');
    const p = wikiProfile({ siteinfo: site });
    expect(p.namespaceNames(6)[0]).toBe('Bild');
    expect(p.namespaceNames(6).filter((n) => n === 'Bild')).toHaveLength(1);
    expect(p.namespaceOf('Datei')).toBe(6);
  });

  it.skipIf(folder === undefined)('a real siteinfo over a listed wiki: names of its revision, magic words of its API', () => {
    const api = parseSiteinfo(readFileSync(join(folder!, 'siteinfo', 'hywiki.api.xml'), 'utf8'));
    const p = wikiProfile({ project: 'hywiki', siteinfo: api });
    expect(p.namespaceOf('Պատկեր')).toBe(6);
    expect(p.imageOption('մինի')).toEqual({ option: 'thumbnail' });
    expect(p.imageOption('250փքս')).toEqual({ option: 'width', value: '250' });
    const ru = parseSiteinfo(readFileSync(join(folder!, 'siteinfo', 'ruwiki.xml'), 'utf8'));
    // The generated data cannot decline "Википедия" (ru `{{GRAMMAR:genitive|$1}}`); the dump's siteinfo names it.
    expect(wikiProfile({ siteinfo: ru }).namespaceNames(5)[0]).toBe('Обсуждение Википедии');
    expect(wikiProfile({ siteinfo: ru }).namespaceOf('Обсуждение Википедии')).toBe(5);
  });

  it('an unknown database name is read by its family; an unknown language by its fallbacks, base subtag, English', () => {
    const xx = wikiProfile({ project: 'xxwiki' });
    expect(xx.language).toBe('xx');
    expect(xx.host).toBe('xx.wikipedia.org');
    expect(xx.namespaceOf('File')).toBe(6);
    expect(xx.imageOption('thumb')).toEqual({ option: 'thumbnail' });
    expect(wikiProfile({ language: 'de-at' }).namespaceOf('Datei'), 'base subtag').toBe(6);
    expect(wikiProfile({ language: 'de-formal' }).namespaceOf('Datei'), 'fallback chain').toBe(6);
    expect(wikiProfile({ language: 'be-x-old' }).namespaceNames(14)[0], 'deprecated code').toBe(wikiProfile({ language: 'be-tarask' }).namespaceNames(14)[0]);
    expect(wikiProfile({ language: 'aa' }).namespaceNames(6)[0], 'no MediaWiki data: English, as MediaWiki').toBe('File');
    expect(wikiProfile({ project: 'aawikibooks' }).host).toBe('aa.wikibooks.org');
    const none = wikiProfile();
    expect(none.language).toBe('en');
    expect(none.namespaceOf('Category')).toBe(14);
  });

  it('the page option: a profile as is, a siteinfo or the page’s project', () => {
    const de = wikiProfile({ project: 'dewiki' });
    expect(profileForPage(de, 'enwiki', 'en')).toBe(de);
    expect(profileForPage(undefined, 'dewiki', undefined)).toBe(de);
    expect(profileForPage(dump, undefined, undefined).namespaceOf('Imej')).toBe(6);
  });

  it('builds a profile for every wiki the data lists, each knowing File and Category', () => {
    const names = wikiDbNames();
    expect(names.length).toBeGreaterThan(1000);
    for (const project of names) {
      const p = wikiProfile({ project });
      expect(p.namespaceOf('File'), project).toBe(6);
      expect(p.namespaceNames(14).length, project).toBeGreaterThan(0);
      expect(p.host, project).toMatch(/\./);
    }
  });

  it('matches namespace names as MediaWiki does: case, _ and runs of spaces', () => {
    expect(namespaceKey('  Benutzer__Diskussion ')).toBe('benutzer diskussion');
  });
});
