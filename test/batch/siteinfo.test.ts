/**
 * The wiki's siteinfo reaches the wikitext door: an XML dump's own <siteinfo> for its pages,
 * `--siteinfo FILE` for other inputs (the dump's winning), `parseWikitext(…, { site })` in the
 * library. What the converter hands the engine is read from `inputOf` (the decoding step of
 * `convertPayload`); that `parseRecord` hands the site on to the wikitext door is tested in
 * test/engine/parse-record.test.ts.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../../src/batch/convert.js';
import { UsageError } from '../../src/batch/options.js';
import { checkSiteinfoFile, readSiteInfo, readSiteinfoText } from '../../src/io/sources/siteinfo.js';
import { wikiProfile } from '../../src/engine/wiki/profile.js';
import { parseSiteinfo } from '../../src/engine/wiki/siteinfo.js';
import { convertPayload, inputOf } from '../../src/workers/convert-record.js';

const DUMP_HEAD = `<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" xml:lang="ja">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>jawiki</dbname>
    <base>https://ja.wikipedia.org/wiki/%E3%83%A1%E3%82%A4%E3%83%B3%E3%83%9A%E3%83%BC%E3%82%B8</base>
    <case>first-letter</case>
    <namespaces>
      <namespace key="6" case="first-letter">ファイル</namespace>
      <namespace key="14" case="first-letter">Category</namespace>
    </namespaces>
  </siteinfo>
`;
const PAGE = '<page><title>日本</title><ns>0</ns><id>1</id><revision><id>2</id><text>日本は国である。</text></revision></page>';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const dir = mkdtempSync(join(tmpdir(), 'h23d-siteinfo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('siteinfo plumbing', () => {
  it('the dump reader keeps the whole <siteinfo> block, as text for the workers to parse', () => {
    const site = readSiteInfo(DUMP_HEAD);
    expect(site.dbname).toBe('jawiki');
    expect(site.block).toBe(DUMP_HEAD.slice(DUMP_HEAD.indexOf('<siteinfo>'), DUMP_HEAD.indexOf('</siteinfo>') + '</siteinfo>'.length));
    const data = parseSiteinfo(site.block!);
    expect(data.namespaces).toEqual([
      { id: 6, name: 'ファイル', case: 'first-letter' },
      { id: 14, name: 'Category', case: 'first-letter' },
    ]);
    expect(data.host).toBe('ja.wikipedia.org');
  });

  it('an XML dump page goes to the engine with its dump’s siteinfo, which wins over --siteinfo', () => {
    const site = readSiteInfo(DUMP_HEAD);
    const other = '<siteinfo><dbname>xxwiki</dbname></siteinfo>';
    const input = inputOf({ kind: 'xml-page', bytes: bytes(PAGE), site }, { allPages: false, siteinfo: other });
    expect(input).toMatchObject({ record: { kind: 'wikitext', wikitext: '日本は国である。', meta: { name: '日本' } }, name: '日本' });
    expect('site' in input && input.site).toEqual(parseSiteinfo(site.block!));
    const bare = inputOf({ kind: 'xml-page', bytes: bytes(PAGE), site: { dbname: 'jawiki' } }, { allPages: false, siteinfo: other });
    expect('site' in bare && bare.site, 'a dump without <siteinfo>: --siteinfo').toEqual(parseSiteinfo(other));
    expect(convertPayload({ kind: 'xml-page', bytes: bytes(PAGE), site }, { allPages: false, siteinfo: other }).status, 'and it converts').toBe('ok');
  });

  it('a worker parses a siteinfo once for the pages that carry it, not once per page', () => {
    const site = readSiteInfo(DUMP_HEAD);
    const first = inputOf({ kind: 'xml-page', bytes: bytes(PAGE), site }, { allPages: false });
    // The block arrives afresh with each page (a structured clone): equal text, the same parse.
    const again = inputOf({ kind: 'xml-page', bytes: bytes(PAGE), site: structuredClone(site) }, { allPages: false });
    expect('site' in again && again.site).toBe('site' in first && first.site);
  });

  it('a dump whose <siteinfo> the engine cannot read fails its pages with the engine’s message', () => {
    const outcome = convertPayload({ kind: 'xml-page', bytes: bytes(PAGE), site: { dbname: 'jawiki', block: '<siteinfo>' } }, { allPages: false });
    expect(outcome).toMatchObject({ status: 'failed', code: 'INVALID_INPUT', message: 'siteinfo: <siteinfo> is not closed' });
  });

  it('an envelope with wikitext goes to the engine with --siteinfo', () => {
    const siteinfo = '<siteinfo><dbname>dewiki</dbname><namespaces><namespace key="6" case="first-letter">Datei</namespace></namespaces></siteinfo>';
    const envelope = { name: 'Berlin', is_part_of: { identifier: 'dewiki' }, article_body: { wikitext: 'Berlin ist eine Stadt.' } };
    const payload = { kind: 'json' as const, bytes: bytes(JSON.stringify(envelope)) };
    const input = inputOf(payload, { allPages: false, siteinfo });
    expect(input).toMatchObject({ record: { kind: 'envelope', envelope }, name: 'Berlin' });
    expect('site' in input && input.site).toMatchObject({ dbName: 'dewiki', namespaces: [{ id: 6, name: 'Datei' }] });
    expect(convertPayload(payload, { allPages: false, siteinfo }).status).toBe('ok');
  });

  it('a worker’s clone of the same siteinfo gets the same profile, not one per page', () => {
    const site = parseSiteinfo(readSiteInfo(DUMP_HEAD).block!);
    const profile = wikiProfile({ siteinfo: site });
    expect(wikiProfile({ siteinfo: structuredClone(site) })).toBe(profile);
    expect(profile.namespaceOf('Category')).toBe(14);
  });

  it('--siteinfo FILE: read before anything is written, bad usage when unreadable or not siteinfo', async () => {
    const good = join(dir, 'siteinfo.xml');
    writeFileSync(good, DUMP_HEAD + '</mediawiki>');
    expect(await checkSiteinfoFile(good)).toBe(DUMP_HEAD + '</mediawiki>');
    const bad = join(dir, 'bad.xml');
    writeFileSync(bad, '<html><body>not siteinfo</body></html>');
    await expect(checkSiteinfoFile(bad)).rejects.toThrow(UsageError);
    await expect(checkSiteinfoFile(bad)).rejects.toThrow(/--siteinfo .*bad\.xml: siteinfo: neither/);
    expect(readSiteinfoText(bad), 'read as it is, for the workers').toContain('not siteinfo');
    expect(() => readSiteinfoText(join(dir, 'missing.xml'))).toThrow(/--siteinfo .*missing\.xml/);
    await expect(checkSiteinfoFile(join(dir, 'missing.xml'))).rejects.toThrow(UsageError);
    const input = join(dir, 'page.html');
    writeFileSync(input, '<html><body><p>x</p></body></html>');
    const output = join(dir, 'out');
    await expect(convert({ inputs: [input], output, jobs: 1, siteinfo: bad, quiet: true }, { writeErr: () => {}, isTTY: false })).rejects.toThrow(UsageError);
    expect(existsSync(output), 'nothing written').toBe(false);
  });
});
