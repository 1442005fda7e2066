/**
 * `wikistruct import --siteinfo FILE`, as `convert --siteinfo` (issue 23): the wiki of wikitext
 * records reaches the engine the import parses with; a bad file is bad usage before anything is
 * imported.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { importEngineOptions } from '../../src/service/admin-commands.js';
import { removeTempDirs, tempDir } from '../batch/fixtures.js';
import { cli } from './cli.js';

afterAll(removeTempDirs);

const SITEINFO = `<siteinfo>
  <sitename>Wikipedia</sitename>
  <dbname>dewiki</dbname>
  <base>https://de.wikipedia.org/wiki/Wikipedia:Hauptseite</base>
  <case>first-letter</case>
  <namespaces>
    <namespace key="6" case="first-letter">Datei</namespace>
  </namespaces>
</siteinfo>
`;

function inputs(dir: string): { input: string; siteinfo: string } {
  const siteinfo = join(dir, 'siteinfo.xml');
  writeFileSync(siteinfo, SITEINFO);
  const input = join(dir, 'seiten.ndjson');
  const page = (i: number): string =>
    JSON.stringify({ name: `Seite ${i}`, identifier: i, version: { identifier: 10 + i }, is_part_of: { identifier: 'dewiki' }, article_body: { wikitext: `[[Datei:Bild.jpg|mini|Bild]]\n'''Seite ${i}''' ist eine Seite.` } });
  writeFileSync(input, `${page(1)}\n${page(2)}\n`);
  return { input, siteinfo };
}

describe('import --siteinfo', { timeout: 120_000 }, () => {
  it('hands the file’s wiki to the engine of the import', () => {
    const { input, siteinfo } = inputs(tempDir('import-siteinfo-engine'));
    const options = importEngineOptions({ action: 'import', inputs: [input], jobs: 1, siteinfo });
    expect(options.siteinfo, 'the file’s XML, parsed on each engine thread').toBe(SITEINFO);
    expect(importEngineOptions({ action: 'import', inputs: [input], jobs: 1 }).siteinfo, 'no --siteinfo, no site').toBeUndefined();
  });

  it('imports with a good file; a missing or bad one is bad usage (exit 2) before anything is imported', async () => {
    const dir = tempDir('import-siteinfo-cli');
    const { input, siteinfo } = inputs(dir);
    const env = { ...process.env, DATABASE_URL: '', WIKISTRUCT_DATA: '' };
    const bad = join(dir, 'bad.xml');
    writeFileSync(bad, '<html><body>not siteinfo</body></html>');
    for (const file of [bad, join(dir, 'missing.xml')]) {
      const refused = await cli(['import', input, '--siteinfo', file, '--data', join(dir, 'refused'), '--jobs', '1'], env);
      expect(refused.code, refused.stderr).toBe(2);
      expect(refused.stderr).toContain(`--siteinfo ${file}`);
      expect(existsSync(join(dir, 'refused')), 'no database opened').toBe(false);
    }
    const result = await cli(['import', input, '--siteinfo', siteinfo, '--data', join(dir, 'data'), '--jobs', '1'], env);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^imported 2 records in [\d.]+ s: 2 new/);
  });

  it('--help names it', async () => {
    const help = await cli(['import', '--help']);
    expect(help.stdout).toMatch(/--siteinfo +the wiki of wikitext records/);
  });
});

describe('import of .wikitext pages', { timeout: 120_000 }, () => {
  it('one page per file, titled after it; the project from --project, as for bare HTML', async () => {
    const dir = tempDir('import-wikitext');
    const page = join(dir, 'Seite_eins.wikitext');
    writeFileSync(page, "{{Infobox Ort\n| Name = Seite eins\n}}\n'''Seite eins''' ist eine Seite.");
    const env = { ...process.env, DATABASE_URL: '', WIKISTRUCT_DATA: '' };
    const data = join(dir, 'data');
    const unnamed = await cli(['import', page, '--data', data, '--jobs', '1'], env);
    expect(unnamed.code, 'no project: the record fails, precisely').toBe(1);
    expect(unnamed.stderr).toContain('Seite_eins.wikitext:1: the record does not say which project it belongs to; pass --project');
    const first = await cli(['import', page, '--project', 'dewiki', '--data', data, '--jobs', '1'], env);
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toMatch(/^imported 1 records in [\d.]+ s: 1 new/);
    const again = await cli(['import', page, '--project', 'dewiki', '--data', data, '--jobs', '1'], env);
    expect(again.stdout, 'the same page (title from the file name) is already stored').toMatch(/1 already stored/);
  });
});
