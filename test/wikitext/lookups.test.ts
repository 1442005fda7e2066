/**
 * Templates that look data up (issue 23): their positional parameters are keys, never text, so
 * the fallback for templates without a renderer (render.ts) shows nothing of them; the fallback
 * still keeps the positional text of formatting templates. Real calls of the corpus.
 */
import { describe, expect, it } from 'vitest';
import { parseWikitext } from '../../src/index.js';
import type { Article } from '../../src/index.js';

const read = (text: string, name: string, project: string): Article => parseWikitext(text, { name, project, language: project.replace(/wiki$/, '') });

describe('data lookups show nothing of their keys', () => {
  it('by structure: a number or code and the page\'s own name (nlwiki__Berlijn, frwiki__Calvi)', () => {
    expect(read('Berlijn telt {{Statistiek gemeente Duitsland inwoners|11|Berlijn}} inwoners.', 'Berlijn', 'nlwiki').abstract).toBe('Berlijn telt inwoners.');
    expect(read('Calvi compte {{Zz commune|2B050|calvi|Calvi}} habitants.', 'Calvi', 'frwiki').abstract).toBe('Calvi compte habitants.');
  });
  it('by name: the wiki\'s lookup families (grammar noise prefixes: dewiki__Berlin, svwiki__Berlin)', () => {
    expect(read('Berlin hat {{Metadaten Einwohnerzahl DE-BE|Berlin}} Einwohner.', 'Berlin', 'dewiki').abstract).toBe('Berlin hat Einwohner.');
    expect(read('Mitte hat {{Metadaten Einwohnerzahl DE-BE|Mitte}} Einwohner.', 'Berlin', 'dewiki').abstract).toBe('Mitte hat Einwohner.');
    expect(read('Karta {{Kartposition Tyskland|bild1}} här.', 'Berlin', 'svwiki').abstract).toBe('Karta här.');
  });
  it('a file name, an image size or a format key given to a template is no text (nlwiki__Berlijn)', () => {
    expect(read('Kaart: {{Kaart deelstaten Duitsland|Locator map Berlin in Germany.svg|190px}}.', 'Berlijn', 'nlwiki').abstract).toBe('Kaart:.');
    expect(read('Op {{Datum|{{Statistiek gemeente Duitsland inwoners||Berlijn|TXT=Year}}|iso2}} geteld.', 'Berlijn', 'nlwiki').abstract).toBe('Op geteld.');
    expect(read('De {{Zz weg|A1}} loopt.', 'Berlijn', 'nlwiki').abstract).toBe('De A1 loopt.');
  });
  it('keeps the positional text of formatting templates, the page\'s name among it', () => {
    expect(read('Listed as {{Zz ticker|IBM}} in {{Zz nb|100|mètres}}.', 'IBM', 'enwiki').abstract).toBe('Listed as IBM in 100 mètres.');
    expect(read('The {{Zz small|Berlin}} wall.', 'Berlin', 'enwiki').abstract).toBe('The Berlin wall.');
    expect(read('{{Zz lang|de|Berlin}} is big.', 'Berlin', 'enwiki').abstract).toBe('Berlin is big.');
  });
});

describe('parameters a template does not show', () => {
  it('are read for their footnotes only: no text of a template inside them leaks (dewiki__Berlin {{Mehrspaltige Liste|liste=…}})', () => {
    const a = read('Partner.<ref>Quelle.</ref>\n{{Zz columns|liste={{USA|Ziel=Los Angeles}} (1967)<ref>Senat.</ref><br />{{FRA|Ziel=Paris}} (1987)}}\nEnde.', 'Berlin', 'dewiki');
    expect(JSON.stringify(a.sections)).not.toMatch(/Los Angeles|Paris/);
    expect(a.references.map((r) => r.text.value)).toEqual(['Quelle.', 'Senat.']);
  });
});

