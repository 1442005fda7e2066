/**
 * Noise rules of grammar/noise.json that clean text, through the public parser: each case is the
 * markup a wiki writes (taken from the shared corpus or the templates' output), and the value a
 * reader sees. corpus/clean-text holds the same constructs as one strictly compared fixture.
 */
import { describe, expect, it } from 'vitest';
import { parse, parseWikitext } from '../../src/index.js';
import { NOISE } from '../../src/engine/grammar.js';

const page = (body: string): string =>
  `<!DOCTYPE html><html><head><meta property="mw:htmlVersion" content="2.8.0"/><base href="//en.wikipedia.org/wiki/"/><title>T</title></head><body class="mw-parser-output"><section data-mw-section-id="0">${body}</section></body></html>`;
const firstValue = (html: string): string | undefined => parse(page(html)).sections[0]?.has_parts?.[0]?.value;

describe('hidden styles from the grammar', () => {
  it('hide visibility:hidden as well as display:none, however the style is spaced or cased', () => {
    expect(NOISE.isHiddenStyle('visibility:hidden')).toBe(true);
    expect(NOISE.isHiddenStyle('color:transparent; VISIBILITY : Hidden ;')).toBe(true);
    expect(NOISE.isHiddenStyle('display: none')).toBe(true);
    expect(NOISE.isHiddenStyle('visibility:visible;border:none')).toBe(false);
  });

  it('drop the padding {{0}} adds to align figures (Berliner_Mauer: "156,4", not "156,40")', () => {
    expect(firstValue('<p>Länge 156,4<span style="visibility:hidden;color:transparent;">0</span> km</p>')).toBe('Länge 156,4 km');
  });
});

describe('maintenance tags', () => {
  it('drop frwiki sup.need_ref_tag and keep the passage it marks (Gad_Elmaleh)', () => {
    const html =
      '<p><span class="need_ref" title="Une source secondaire est souhaitée pour ce passage.">Le spectacle est joué à New York.</span><sup class="need_ref_tag" style="padding-left:2px;"><a rel="mw:WikiLink" href="./Modèle:Source_secondaire_souhaitée/Documentation">[source secondaire souhaitée]</a></sup></p>';
    expect(firstValue(html)).toBe('Le spectacle est joué à New York.');
    expect(parse(page(html)).sections[0]?.has_parts?.[0]?.links, 'the tag links to its help page: not a link of the text').toBeUndefined();
  });

  it('drop the Template:Fix family by its own class, on a copy without noprint (eswiki {{cuándo}})', () => {
    expect(firstValue('<p>Fue fundada en 1535<sup class="Inline-Template"><span>[<i><a href="./Wikipedia:Verificabilidad">¿cuándo?</a></i>]</span></sup>.</p>')).toBe(
      'Fue fundada en 1535.',
    );
  });

  it('render nothing for the same templates on the wikitext path', () => {
    const a = parseWikitext("Elle lui rend hommage{{Par qui}}. Fue fundada en 1535{{cuándo}}. Il vit{{refsou}}.", { name: 'T', language: 'fr' });
    expect(a.abstract).toBe('Elle lui rend hommage. Fue fundada en 1535. Il vit.');
  });
});

describe('audio', () => {
  it('drop an audio player and its fallback link (Parsoid mw:File of an .ogg)', () => {
    expect(
      firstValue(
        '<p>Himno<span typeof="mw:File"><span><audio controls="" class="mw-file-element"><source src="//upload.wikimedia.org/a.ogg" type="audio/ogg"/><a href="./Archivo:A.ogg">Descargar</a></audio></span></span> nacional.</p>',
      ),
    ).toBe('Himno nacional.');
  });

  it('keep the label of an audio link that is a word, drop its "(help·info)" links (China, Fuzhou BUC)', () => {
    expect(
      firstValue(
        '<p><span class="unicode haudio"><a href="//upload.wikimedia.org/x.ogg" class="internal">Dṳ̆ng-guók</a></span>&#160;<small class="metadata audiolinkinfo">(<a href="/wiki/Wikipedia:Media_help">help</a>·<a href="/wiki/File:X.ogg">info</a>)</small></p>',
      ),
    ).toBe('Dṳ̆ng-guók');
  });

  it('drop an audio link whose text is only the player\'s word, and the parentheses around it (Spain, Parsoid)', () => {
    expect(
      firstValue(
        '<p>España (<span class="unicode haudio"><span class="fn"><span typeof="mw:File"><a href="./File:Es-España.ogg"><img src="//upload.wikimedia.org/Loudspeaker.svg" width="11" height="11"/></a></span></span><a rel="mw:MediaLink" href="//upload.wikimedia.org/wikipedia/commons/6/64/Es-Espa%C3%B1a.ogg" resource="./Media:Es-España.ogg">listen</a></span>) is a country.</p>',
      ),
    ).toBe('España is a country.');
  });

  it('drop the same on a skin page, in another language ("escuchar"), with the player\'s help link', () => {
    expect(
      firstValue(
        '<p>Madrid [maˈðɾið] (<a href="//upload.wikimedia.org/wikipedia/commons/x/Madrid.OGG" class="internal">Escuchar</a>)<sup><a href="/wiki/Ayuda:Multimedia">¿Problemas al reproducir este archivo?</a></sup> es la capital.</p>',
      ),
    ).toBe('Madrid [maˈðɾið] es la capital.');
  });

  it('keep a link to a sound file whose text is not a player word, and a "listen" link to a page', () => {
    expect(firstValue('<p>The <a rel="mw:MediaLink" href="//upload.wikimedia.org/Anthem.ogg">anthem</a> plays.</p>')).toBe('The anthem plays.');
    expect(firstValue('<p>They <a rel="mw:WikiLink" href="./Listen">listen</a>.</p>')).toBe('They listen.');
  });
});

describe('help links', () => {
  it('drop the "?" enwiki {{Nihongo}} puts after a Japanese name', () => {
    const html =
      '<p>Kyoto (<span class="t_nihongo_kanji" lang="ja">京都</span><span class="t_nihongo_comma">, </span><i>Kyōto</i><sup class="t_nihongo_help noprint"><a href="/wiki/Help:Installing_Japanese_character_sets">?</a></sup>) is a city.</p>';
    expect(firstValue(html)).toBe('Kyoto (京都, Kyōto) is a city.');
    const bare = html.replace(' noprint', '');
    expect(firstValue(bare), 'also without the noprint class, by the link target').toBe('Kyoto (京都, Kyōto) is a city.');
  });
});
