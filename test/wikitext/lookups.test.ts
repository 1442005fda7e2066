/**
 * Templates that look data up (issue 23): their positional parameters are keys, never text, so
 * the fallback for templates without a renderer (render.ts) shows nothing of them; the fallback
 * still keeps the positional text of formatting templates. Real calls of the corpus.
 */
import { describe, expect, it } from 'vitest';
import { parseWikitext } from '../../src/index.js';
import type { Article } from '../../src/index.js';

const read = (text: string, name: string, project: string): Article => parseWikitext(text, { name, project, language: project.replace(/wiki$/, '') });

describe('data lookups show nothing of their keys; formatting templates keep their text', () => {
  it.each([
    // By structure: a number or code and the page's own name (nlwiki__Berlijn, frwiki__Calvi).
    ['nlwiki', 'Berlijn', 'Berlijn telt {{Statistiek gemeente Duitsland inwoners|11|Berlijn}} inwoners.', 'Berlijn telt inwoners.'],
    ['frwiki', 'Calvi', 'Calvi compte {{Zz commune|2B050|calvi|Calvi}} habitants.', 'Calvi compte habitants.'],
    // By name: the wiki's lookup families (grammar noise prefixes: dewiki__Berlin, svwiki__Berlin).
    ['dewiki', 'Berlin', 'Berlin hat {{Metadaten Einwohnerzahl DE-BE|Berlin}} Einwohner.', 'Berlin hat Einwohner.'],
    ['dewiki', 'Berlin', 'Mitte hat {{Metadaten Einwohnerzahl DE-BE|Mitte}} Einwohner.', 'Mitte hat Einwohner.'],
    ['svwiki', 'Berlin', 'Karta {{Kartposition Tyskland|bild1}} här.', 'Karta här.'],
    // A file name, an image size or a format key given to a template is no text (nlwiki__Berlijn).
    ['nlwiki', 'Berlijn', 'Kaart: {{Kaart deelstaten Duitsland|Locator map Berlin in Germany.svg|190px}}.', 'Kaart:.'],
    ['nlwiki', 'Berlijn', 'Op {{Datum|{{Statistiek gemeente Duitsland inwoners||Berlijn|TXT=Year}}|iso2}} geteld.', 'Op geteld.'],
    // A footnote written by name: the name is a key (plwiki__Berlin).
    ['plwiki', 'Berlin', 'W 1700 roku Francuzi stanowili już ok. 30% populacji miasta{{r|fam}}.', 'W 1700 roku Francuzi stanowili już ok. 30% populacji miasta.'],
    // Formatting templates keep their positional text, the page's name among it.
    ['nlwiki', 'Berlijn', 'De {{Zz weg|A1}} loopt.', 'De A1 loopt.'],
    ['enwiki', 'IBM', 'Listed as {{Zz ticker|IBM}} in {{Zz nb|100|mètres}}.', 'Listed as IBM in 100 mètres.'],
    ['enwiki', 'Berlin', 'The {{Zz small|Berlin}} wall.', 'The Berlin wall.'],
    ['enwiki', 'Berlin', '{{Zz lang|de|Berlin}} is big.', 'Berlin is big.'],
  ])('%s "%s": %s', (project, name, text, abstract) => {
    expect(read(text, name, project).abstract).toBe(abstract);
  });
});

describe('parameters a template does not show', () => {
  it('are read for their footnotes only: no text of a template inside them leaks (dewiki__Berlin {{Mehrspaltige Liste|liste=…}})', () => {
    const a = read('Partner.<ref>Quelle.</ref>\n{{Zz columns|liste={{USA|Ziel=Los Angeles}} (1967)<ref>Senat.</ref><br />{{FRA|Ziel=Paris}} (1987)}}\nEnde.', 'Berlin', 'dewiki');
    expect(JSON.stringify(a.sections)).not.toMatch(/Los Angeles|Paris/);
    expect(a.references.map((r) => r.text.value)).toEqual(['Quelle.', 'Senat.']);
  });
});

