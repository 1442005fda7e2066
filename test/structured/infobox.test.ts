import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Part } from '../../src/schema/article.js';
import { cleanLabel } from '../../src/engine/infobox/html.js';
import { parse } from '../../src/index.js';

const wrap = (box: string): string =>
  `<html><head><base href="//fr.wikipedia.org/wiki/"/><title>B</title></head><body><section data-mw-section-id="0">${box}<p>Texte.</p></section></body></html>`;

describe('infobox labels', () => {
  it('drop sub-row bullets and trailing colons', () => {
    expect(cleanLabel('• Founded')).toBe('Founded');
    expect(cleanLabel('Kingdom:')).toBe('Kingdom');
    expect(cleanLabel('Population')).toBe('Population');
  });
});

describe('frwiki infobox_v3 (div based)', () => {
  const box = `<div class="infobox_v3 large" about="#mwt1" typeof="mw:Transclusion" data-mw='{"parts":[{"template":{"target":{"wt":"Infobox Biographie2","href":"./Modèle:Infobox_Biographie2"},"params":{}}}]}'>
    <div class="entete icon"><div>Joséphine Baker</div></div>
    <div class="images"><span typeof="mw:File"><a href="./Fichier:JB.jpg"><img src="//upload.wikimedia.org/jb.jpg" width="200" height="250"/></a></span></div>
    <div class="legend">Joséphine Baker en 1940</div>
    <table><caption>Biographie</caption><tbody>
      <tr><th scope="row">Naissance</th><td>3 juin 1906<br/><a rel="mw:WikiLink" href="./Saint-Louis">Saint-Louis</a></td></tr>
      <tr><th scope="row">Nationalité</th><td>française</td></tr>
    </tbody></table>
  </div>`;

  it('reads the title, the image with its caption, caption headers and fields', () => {
    const [ib] = parse(wrap(box)).infoboxes;
    expect(ib).toMatchObject({
      name: 'Infobox Biographie2',
      type: 'infobox',
      has_parts: [
        { name: 'Joséphine Baker', type: 'section', has_parts: [{ type: 'image', value: 'Joséphine Baker en 1940', images: [{ content_url: 'https://upload.wikimedia.org/jb.jpg', width: 200, height: 250 }] }] },
        {
          name: 'Biographie',
          type: 'section',
          has_parts: [
            { type: 'field', name: 'Naissance', value: '3 juin 1906; Saint-Louis', has_parts: [{ type: 'list_item', value: '3 juin 1906' }, { type: 'list_item', value: 'Saint-Louis' }] },
            { type: 'field', name: 'Nationalité', value: 'française' },
          ],
        },
      ],
    });
  });

  it('is not section content', () => {
    const a = parse(wrap(box));
    expect(a.sections[0]!.has_parts).toEqual([{ type: 'paragraph', value: 'Texte.' }]);
  });

  it('falls back to the box title for its name when there is no data-mw', () => {
    const [ib] = parse(wrap('<table class="infobox"><tr><th colspan="2">Plain Box</th></tr><tr><th>Key</th><td>Value</td></tr></table>')).infoboxes;
    expect(ib!.name).toBe('Plain Box');
    expect(ib!.has_parts![0]!.has_parts).toEqual([{ type: 'field', name: 'Key', value: 'Value' }]);
  });
});

const enwiki = (rows: string, after = ''): string =>
  `<html><head><base href="//en.wikipedia.org/wiki/"/><title>B</title></head><body><section data-mw-section-id="0"><table class="infobox"><tbody><tr><th colspan="2" class="infobox-above">Box</th></tr>${rows}</tbody></table><p>Text.${after}</p><ol class="mw-references references"><li id="cite_note-1">Source.</li></ol></section></body></html>`;
const row = (label: string, data: string): string => `<tr><th scope="row" class="infobox-label">${label}</th><td class="infobox-data">${data}</td></tr>`;
const fieldsOf = (html: string): Part[] => parse(html).infoboxes.flatMap((ib) => ib.has_parts ?? []).flatMap((s) => s.has_parts ?? []);

/** A list tree as the infobox shows it: each item a text with optional sub-items. */
interface Tree {
  text: string;
  children: Tree[];
}
const word = fc.stringMatching(/^[A-Za-z][a-z]{0,6}( [a-z]{1,6})?$/);
const { tree } = fc.letrec<{ tree: Tree; trees: Tree[] }>((tie) => ({
  tree: fc.record({ text: word, children: tie('trees') as fc.Arbitrary<Tree[]> }),
  trees: fc.oneof({ depthSize: 'small', withCrossShrink: true }, fc.constant<Tree[]>([]), fc.array(tie('tree') as fc.Arbitrary<Tree>, { minLength: 1, maxLength: 3 })),
}));
const ul = (items: readonly Tree[]): string => `<ul>${items.map((t) => `<li>${t.text}${t.children.length > 0 ? ul(t.children) : ''}</li>`).join('')}</ul>`;
const asItems = (items: readonly Tree[]): Part[] =>
  items.map((t) => (t.children.length > 0 ? { type: 'list_item', value: t.text, has_parts: asItems(t.children) } : { type: 'list_item', value: t.text }));

describe('infobox field values keep everything they show (issue #14)', () => {
  it('a nested list of any shape becomes nested list_items, item for item (property)', () => {
    fc.assert(
      fc.property(fc.array(tree, { minLength: 2, maxLength: 4 }), (items) => {
        const [field] = fieldsOf(enwiki(row('Religion', `<div class="plainlist">${ul(items)}</div>`)));
        expect(field!.has_parts, 'the tree of items').toEqual(asItems(items));
        // Every item's text appears in the value, in document order.
        const texts: string[] = [];
        const visit = (ts: readonly Tree[]): void => ts.forEach((t) => (texts.push(t.text), visit(t.children)));
        visit(items);
        let at = 0;
        for (const t of texts) {
          const found = field!.value!.indexOf(t, at);
          expect(found, `"${t}" in "${field!.value}"`).toBeGreaterThanOrEqual(0);
          at = found + t.length;
        }
      }),
      { numRuns: 150 },
    );
  });

  it('one item that carries a sub-list is still a list; one plain item is a value', () => {
    expect(fieldsOf(enwiki(row('Religion', '<ul><li>62.6% Christianity<ul><li>32% Protestantism</li></ul></li></ul>')))[0]).toEqual({
      type: 'field',
      name: 'Religion',
      value: '62.6% Christianity (32% Protestantism)',
      has_parts: [{ type: 'list_item', value: '62.6% Christianity', has_parts: [{ type: 'list_item', value: '32% Protestantism' }] }],
    });
    expect(fieldsOf(enwiki(row('Capital', '<ul><li>Bern</li></ul>')))[0]).toEqual({ type: 'field', name: 'Capital', value: 'Bern' });
  });

  it('text between lists leads the list after it, and a marker after a list cites its last item', () => {
    const [field] = fieldsOf(
      enwiki(row('Ethnic groups', 'By race:<ul><li>70% White</li><li>12% Black</li></ul><sup typeof="mw:Extension/ref" class="mw-ref reference"><a href="./B#cite_note-1">[1]</a></sup>Other:<ul><li>18%</li></ul>')),
    );
    expect(field!.has_parts).toEqual([
      { type: 'list_item', value: 'By race:', has_parts: [{ type: 'list_item', value: '70% White' }, { type: 'list_item', value: '12% Black' }], citations: [{ identifier: 'cite_note-1', text: '[1]' }] },
      { type: 'list_item', value: 'Other:', has_parts: [{ type: 'list_item', value: '18%' }] },
    ]);
  });

  it('a bold full-width row names a section; a bold line with figures (a term of office) stays a value', () => {
    const html = enwiki(
      '<tr><td colspan="2" class="infobox-full-data"><b>Musical career</b></td></tr>' + row('Genres', 'Pop') +
        '<tr><td colspan="2" class="infobox-full-data"><b>7 June 2001 – 12 September 2016</b></td></tr>',
    );
    const sections = parse(html).infoboxes[0]!.has_parts!;
    expect(sections.map((s) => s.name)).toEqual(['Box', 'Musical career']);
    expect(sections[1]!.has_parts).toEqual([
      { type: 'field', name: 'Genres', value: 'Pop' },
      { type: 'field', value: '7 June 2001 – 12 September 2016' },
    ]);
  });

  it('a caption row goes onto the image above it; without an image it is a field', () => {
    const img = '<tr><td colspan="2" class="infobox-image"><span typeof="mw:File"><img src="//upload.wikimedia.org/x.jpg" width="200" height="100" alt="A view"/></span></td></tr>';
    const caption = '<tr><td colspan="2" class="infobox-caption">The view</td></tr>';
    expect(fieldsOf(enwiki(img + caption))).toEqual([
      { type: 'image', value: 'The view', images: [{ content_url: 'https://upload.wikimedia.org/x.jpg', width: 200, height: 100, alternative_text: 'A view', caption: 'The view' }] },
    ]);
    expect(fieldsOf(enwiki(caption))).toEqual([{ type: 'field', value: 'The view' }]);
  });

  it('an icon speaks through its alt text; an illustration, a loudspeaker, a flag and an edit pencil do not', () => {
    const icon = '<img alt="Gold medal – first place" src="//upload.wikimedia.org/g.png" width="16" height="16"/>';
    const big = '<img alt="A map" src="//upload.wikimedia.org/m.png" width="220" height="16"/>';
    const audio = '<span class="unicode haudio"><a href="/wiki/File:X.ogg"><img alt="audio speaker icon" src="//upload.wikimedia.org/l.png" width="11" height="11"/></a></span>';
    const flag = '<span class="flagicon"><span typeof="mw:File"><a href="./Morocco"><img alt="Morocco" src="//upload.wikimedia.org/f.png" width="23" height="15"/></a></span></span>';
    const pencil = '<span typeof="mw:File/Frameless"><a href="https://www.wikidata.org/wiki/Q777#P348"><img alt="Edit this on Wikidata" src="//upload.wikimedia.org/e.png" width="10" height="10"/></a></span>';
    const rows = row('Medal', `${icon} 1996`) + row('Map', `${big} Here`) + row('Name', `${audio} Dzung`) + row('Nationality', `${flag} Moroccan`) + row('Release', `1.0 ${pencil}`);
    expect(fieldsOf(enwiki(rows)).map((f) => f.value)).toEqual(['Gold medal – first place 1996', 'Here', 'Dzung', 'Moroccan', '1.0']);
  });

  it('coordinates read as degrees-minutes-seconds in fields and running text; the title-bar copy is dropped', () => {
    const coord =
      '<span class="geo-default"><span class="geo-dms"><span class="latitude">46°57′N</span> <span class="longitude">7°27′E</span></span></span><span class="geo-multi-punct"> / </span><span class="geo-nondefault"><span class="geo-dec">46.950°N 7.450°E</span><span style="display:none"> / <span class="geo">46.950; 7.450</span></span></span>';
    const a = parse(enwiki(row('Coordinates', coord), ` Bern (${coord}).<span id="coordinates">Coordinates: ${coord}</span>`));
    expect(fieldsOf(enwiki(row('Coordinates', coord)))[0]!.value).toBe('46°57′N 7°27′E');
    expect(a.abstract).toBe('Text. Bern (46°57′N 7°27′E).');
  });
});
