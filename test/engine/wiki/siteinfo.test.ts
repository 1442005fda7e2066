/**
 * parseSiteinfo on both shapes MediaWiki writes: a dump's <siteinfo> block and the API's siteinfo
 * XML — small hand-written samples for every field, and the real files of the wikitext corpus.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../../src/index.js';
import { parseSiteinfo } from '../../../src/engine/wiki/siteinfo.js';
import { wikitextCorpusDir } from '../../../scripts/conformance/wikitext-corpus.js';

const folder = wikitextCorpusDir();

const DUMP = `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>dewiki</dbname>
    <base>https://de.wikipedia.org/wiki/Wikipedia:Hauptseite</base>
    <generator>MediaWiki 1.41.0-wmf.6</generator>
    <case>first-letter</case>
    <namespaces>
      <namespace key="-2" case="first-letter">Medium</namespace>
      <namespace key="0" case="first-letter" />
      <namespace key="3" case="first-letter">Benutzer Diskussion</namespace>
      <namespace key="6" case="first-letter">Datei</namespace>
      <namespace key="2300" case="case-sensitive">Gadget</namespace>
    </namespaces>
  </siteinfo>
  <page>`;

const API = `<?xml version="1.0"?><api batchcomplete=""><query>
<general mainpage="Main Page" base="https://he.wikipedia.org/wiki/Main" sitename="ויקיפדיה" wikiid="hewiki" lang="he" rtl="" case="first-letter" generator="MediaWiki 1.42" />
<namespaces><ns id="6" case="first-letter" canonical="File" xml:space="preserve">קובץ</ns><ns id="10" case="first-letter" canonical="Template" xml:space="preserve">תבנית</ns></namespaces>
<namespacealiases><ns id="6" xml:space="preserve">Image</ns><ns id="6" xml:space="preserve">תמונה</ns></namespacealiases>
<magicwords><magicword name="img_thumbnail"><aliases><alias>ממוזער</alias><alias>thumb</alias></aliases></magicword><magicword name="notoc" case-sensitive=""><aliases><alias>__ללא_תוכן_עניינים__</alias><alias>__NOTOC__</alias></aliases></magicword></magicwords>
<interwikimap><iw prefix="en" local="" language="English" url="https://en.wikipedia.org/wiki/$1" /><iw prefix="acronym" url="https://www.acronymfinder.com/$1.html" /></interwikimap>
</query></api>`;

describe('parseSiteinfo', () => {
  it('reads a dump <siteinfo> block, wherever it sits in the text', () => {
    const s = parseSiteinfo(DUMP);
    expect(s).toEqual({
      siteName: 'Wikipedia',
      dbName: 'dewiki',
      base: 'https://de.wikipedia.org/wiki/Wikipedia:Hauptseite',
      host: 'de.wikipedia.org',
      generator: 'MediaWiki 1.41.0-wmf.6',
      case: 'first-letter',
      namespaces: [
        { id: -2, name: 'Medium', case: 'first-letter' },
        { id: 0, name: '', case: 'first-letter' },
        { id: 3, name: 'Benutzer Diskussion', case: 'first-letter' },
        { id: 6, name: 'Datei', case: 'first-letter' },
        { id: 2300, name: 'Gadget', case: 'case-sensitive' },
      ],
      aliases: [],
      magicWords: [],
      interwiki: [],
    });
  });

  it('reads the API form: general, namespaces with canonical names, aliases, magic words, interwiki', () => {
    const s = parseSiteinfo(API);
    expect(s.siteName).toBe('ויקיפדיה');
    expect(s.dbName).toBe('hewiki');
    expect(s.host).toBe('he.wikipedia.org');
    expect(s.language).toBe('he');
    expect(s.dir).toBe('rtl');
    expect(s.case).toBe('first-letter');
    expect(s.namespaces).toEqual([
      { id: 6, name: 'קובץ', canonical: 'File', case: 'first-letter' },
      { id: 10, name: 'תבנית', canonical: 'Template', case: 'first-letter' },
    ]);
    expect(s.aliases).toEqual([
      { id: 6, name: 'Image' },
      { id: 6, name: 'תמונה' },
    ]);
    expect(s.magicWords).toEqual([
      { name: 'img_thumbnail', aliases: ['ממוזער', 'thumb'], caseSensitive: false },
      { name: 'notoc', aliases: ['__ללא_תוכן_עניינים__', '__NOTOC__'], caseSensitive: true },
    ]);
    expect(s.interwiki).toEqual([
      { prefix: 'en', url: 'https://en.wikipedia.org/wiki/$1', language: true },
      { prefix: 'acronym', url: 'https://www.acronymfinder.com/$1.html', language: false },
    ]);
  });

  it('refuses text that is neither, with a typed error', () => {
    expect(() => parseSiteinfo('<html></html>')).toThrow(InvalidInputError);
    expect(() => parseSiteinfo('<siteinfo><sitename>x</sitename>')).toThrow(/not closed/);
  });

  it.skipIf(folder === undefined)('reads every siteinfo file of the wikitext corpus', () => {
    const dir = join(folder!, 'siteinfo');
    const files = readdirSync(dir).filter((f) => f.endsWith('.xml'));
    expect(files.length).toBeGreaterThanOrEqual(46);
    for (const f of files) {
      const s = parseSiteinfo(readFileSync(join(dir, f), 'utf8'));
      const file = s.namespaces.find((n) => n.id === 6);
      expect(file?.name, `${f}: File namespace`).toMatch(/\S/);
      if (f.endsWith('.api.xml')) {
        expect(file?.canonical, f).toBe('File');
        expect(s.magicWords.find((w) => w.name === 'img_thumbnail')?.aliases, f).toContain('thumb');
        expect(s.interwiki.length, f).toBeGreaterThan(100);
      } else {
        expect(s.host, f).toMatch(/\.wikipedia\.org$/);
      }
    }
    const ja = parseSiteinfo(readFileSync(join(dir, 'jawiki.api.xml'), 'utf8'));
    expect(ja.aliases).toContainEqual({ id: 14, name: 'カテゴリ' });
    expect(ja.magicWords.find((w) => w.name === 'img_width')?.aliases).toEqual(['$1ピクセル', '$1px']);
  });
});
