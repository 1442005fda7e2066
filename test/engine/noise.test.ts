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

describe('collapsed is not hidden (grammar/noise.json collapsed)', () => {
  const mobile = (body: string): string =>
    `<!DOCTYPE html><html><head><base href="//en.wikipedia.org/wiki/"/><title>T</title></head><body><div id="pcs">${body}</div></body></html>`;

  it('reads a section the mobile apps collapsed with display:none, headings and text', () => {
    const a = parse(mobile('<section data-mw-section-id="0"><p>Lead.</p></section><section data-mw-section-id="1" style="display: none;"><div class="pcs-edit-section-header v2"><h2 class="pcs-edit-section-title">History</h2><span class="pcs-edit-section-link-container"><a href="/w/index.php?title=T&amp;action=edit&amp;section=1" class="pcs-edit-section-link"></a></span></div><p>Old.</p></section>'));
    expect(a.sections.map((s) => [s.name, s.has_parts?.[0]?.value])).toEqual([['abstract', 'Lead.'], ['History', 'Old.']]);
  });

  it('reads the infobox a mobile-html page folded behind its "Quick facts" bar, which is no abstract', () => {
    const a = parse(
      mobile(
        '<section data-mw-section-id="0"><div class="pcs-collapse-table-container"><div class="pcs-collapse-table-collapsed-container pcs-collapse-table-expanded" style="display: block;"><strong class="pcs-table-infobox">快速預覽</strong><span class="pcs-collapse-table-collapse-text">: 觀測資料 …</span></div><div style="display: none;"><table class="infobox pcs-collapse-table"><tbody><tr><th class="infobox-label">星座</th><td class="infobox-data">天琴座</td></tr></tbody></table></div><div class="pcs-collapse-table-collapsed-bottom pcs-collapse-table-icon" style="display: none;">Close</div></div><p>織女一是天琴座最亮的恆星。</p></section>',
      ),
    );
    expect(a.abstract).toBe('織女一是天琴座最亮的恆星。');
    expect(a.infoboxes[0]?.has_parts?.[0]?.has_parts?.[0]).toMatchObject({ type: 'field', name: '星座', value: '天琴座' });
  });

  it('still drops what is hidden rather than collapsed: a sort key, a hidden div outside the wrappers', () => {
    expect(firstValue('<p>Mass <span style="display:none">02.1</span>2.1</p>')).toBe('Mass 2.1');
    expect(firstValue('<div style="display:none"><p>Hidden.</p></div><p>Shown.</p>')).toBe('Shown.');
    expect(firstValue('<div class="other-wrapper"><div style="display:none">Hidden.</div></div><p>Shown.</p>')).toBe('Shown.');
  });

  it('reads MediaWiki collapsible content a saved page carries collapsed', () => {
    expect(firstValue('<div class="mw-collapsible mw-collapsed"><div class="mw-collapsible-content" style="display: none;">Folded text.</div></div>')).toBe('Folded text.');
  });
});

describe('interface links', () => {
  it('drop a navbar of edit, history and purge links with its brackets', () => {
    const html =
      '<p>Documentation <span class="plainlinks">[<a rel="mw:ExtLink" href="//bs.wikipedia.org/w/index.php?title=X/dok&amp;action=edit" class="external text">uredi</a>] [<a rel="mw:ExtLink" href="//bs.wikipedia.org/w/index.php?title=X/dok&amp;action=history" class="external text">historija</a>] [<span class="noprint"><a rel="mw:ExtLink" href="//bs.wikipedia.org/w/index.php?title=X&amp;action=purge">osvježi</a></span>]</span></p>';
    expect(firstValue(html)).toBe('Documentation');
  });

  it('keep red links (action=edit with redlink=1) and brackets that hold text', () => {
    expect(firstValue('<p>See <a rel="mw:WikiLink" href="./Missing?action=edit&amp;redlink=1" class="new">Missing</a>.</p>')).toBe('See Missing.');
    expect(firstValue('<p>Lists are written [] or [1, 2].</p>')).toBe('Lists are written [] or [1, 2].');
  });
});

describe('messages about the markup', () => {
  it('drop CS1 maintenance and error messages from a reference, keeping the citation', () => {
    const html =
      '<p>x<sup typeof="mw:Extension/ref" class="mw-ref reference"><a href="./T#cite_note-1">[1]</a></sup></p><ol class="mw-references references" typeof="mw:Extension/references"><li id="cite_note-1"><span class="mw-reference-text"><cite class="citation journal cs1">Smith (2019). "On examples".</cite><span class="cs1-maint citation-comment"><code class="cs1-code">{{cite journal}}</code>: CS1 maint: DOI inactive as of June 2024 (<a href="./Category:CS1_maint">link</a>)</span> <span class="cs1-visible-error citation-comment"><code class="cs1-code">|last=</code> has generic name (<a href="./Help:CS1_errors">help</a>)</span></span></li></ol>';
    expect(parse(page(html)).references[0]?.text.value).toBe('Smith (2019). "On examples".');
  });

  it('drop bgwiki\'s other-meaning hatnote above the lead (Knetka)', () => {
    const html = '<div class="othermeaning-box"><dl><dd><i>Вижте <a href="./Клетка_(пояснение)">пояснителната страница</a> за други значения на <b>Клетка</b>.</i></dd></dl><hr/></div><p><b>Клетката</b> е основната единица.</p>';
    expect(parse(page(html)).abstract).toBe('Клетката е основната единица.');
  });
});
