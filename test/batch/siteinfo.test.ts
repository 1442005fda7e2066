/**
 * The wiki's siteinfo reaches the wikitext door: an XML dump's own <siteinfo> for its pages,
 * `--siteinfo FILE` for other inputs (the dump's winning), `parseWikitext(…, { site })` in the
 * library. The door is the real one; what it received is read from the call (the one seam the
 * batch already has: the Engines it is handed).
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { convert } from '../../src/batch/convert.js';
import { UsageError } from '../../src/batch/options.js';
import { readSiteInfo, readSiteinfoFile } from '../../src/io/sources/siteinfo.js';
import { readWikitext } from '../../src/engine/wikitext/index.js';
import type { WikitextOptions } from '../../src/engine/wikitext/index.js';
import { wikiProfile } from '../../src/engine/wiki/profile.js';
import type { SiteinfoData } from '../../src/engine/wiki/siteinfo.js';
import { convertPayload } from '../../src/workers/convert-record.js';
import type { Engines } from '../../src/workers/engines.js';

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

/** The real door, recording the options of each call. */
function recordingEngines(): { engines: Engines; calls: WikitextOptions[] } {
  const calls: WikitextOptions[] = [];
  const engines: Engines = {
    wikitext: (text, meta, options) => {
      calls.push(options ?? {});
      return readWikitext(text, meta, options);
    },
  };
  return { engines, calls };
}

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);
const dir = mkdtempSync(join(tmpdir(), 'h23d-siteinfo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('siteinfo plumbing', () => {
  it('the dump reader keeps the whole <siteinfo> block as the engine reads it', () => {
    const site = readSiteInfo(DUMP_HEAD);
    expect(site.dbname).toBe('jawiki');
    expect(site.data?.namespaces).toEqual([
      { id: 6, name: 'ファイル', case: 'first-letter' },
      { id: 14, name: 'Category', case: 'first-letter' },
    ]);
    expect(site.data?.host).toBe('ja.wikipedia.org');
  });

  it('an XML dump page goes to the door with its dump’s siteinfo, which wins over --siteinfo', () => {
    const { engines, calls } = recordingEngines();
    const site = readSiteInfo(DUMP_HEAD);
    const other: SiteinfoData = { dbName: 'xxwiki', namespaces: [], aliases: [], magicWords: [], interwiki: [] };
    const outcome = convertPayload({ kind: 'xml-page', bytes: bytes(PAGE), site }, engines, { allPages: false, site: other });
    expect(outcome.status).toBe('ok');
    expect(calls[0]?.site).toBe(site.data);
    convertPayload({ kind: 'xml-page', bytes: bytes(PAGE), site: { dbname: 'jawiki' } }, engines, { allPages: false, site: other });
    expect(calls[1]?.site, 'a dump without <siteinfo>: --siteinfo').toBe(other);
  });

  it('an envelope with wikitext goes to the door with --siteinfo', () => {
    const { engines, calls } = recordingEngines();
    const site: SiteinfoData = { dbName: 'dewiki', namespaces: [{ id: 6, name: 'Datei' }], aliases: [], magicWords: [], interwiki: [] };
    const envelope = { name: 'Berlin', is_part_of: { identifier: 'dewiki' }, article_body: { wikitext: 'Berlin ist eine Stadt.' } };
    expect(convertPayload({ kind: 'json', bytes: bytes(JSON.stringify(envelope)) }, engines, { allPages: false, site }).status).toBe('ok');
    expect(calls[0]?.site).toBe(site);
  });

  it('a worker’s clone of the same siteinfo gets the same profile, not one per page', () => {
    const site = readSiteInfo(DUMP_HEAD).data!;
    const profile = wikiProfile({ siteinfo: site });
    expect(wikiProfile({ siteinfo: structuredClone(site) })).toBe(profile);
    expect(profile.namespaceOf('Category')).toBe(14);
  });

  it('--siteinfo FILE: read before anything is written, bad usage when unreadable or not siteinfo', async () => {
    const good = join(dir, 'siteinfo.xml');
    writeFileSync(good, DUMP_HEAD + '</mediawiki>');
    expect(readSiteinfoFile(good).dbName).toBe('jawiki');
    const bad = join(dir, 'bad.xml');
    writeFileSync(bad, '<html><body>not siteinfo</body></html>');
    expect(() => readSiteinfoFile(bad)).toThrow(UsageError);
    expect(() => readSiteinfoFile(join(dir, 'missing.xml'))).toThrow(/--siteinfo .*missing\.xml/);
    const input = join(dir, 'page.html');
    writeFileSync(input, '<html><body><p>x</p></body></html>');
    const output = join(dir, 'out');
    await expect(convert({ inputs: [input], output, jobs: 1, siteinfo: bad, quiet: true }, { writeErr: () => {}, isTTY: false })).rejects.toThrow(UsageError);
    expect(existsSync(output), 'nothing written').toBe(false);
  });
});
