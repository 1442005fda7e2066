import { describe, expect, it } from 'vitest';
import { cleanLabel } from '../../src/engine/blocks/infobox.js';
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
