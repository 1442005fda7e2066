/**
 * Links by Parsoid's `rel` first (src/engine/links.ts, grammar/links.json), class and href guesses
 * only where Parsoid marks nothing. Markup follows the corpus: Gad_Elmaleh.html (a {{drapeau}}
 * flag icon before "Marocaine"), Azerbaijan.html ({{flagicon}} whose image links to the country),
 * Kyoto.html (an audio file: the icon's File link and the mw:MediaLink "listen"), reference lists
 * (mw:referencedBy back-links) and China.html (a skin-rendered page: no rel at all).
 */
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/engine/context.js';
import { inline } from '../../src/engine/inline.js';
import { isMediaTypeof } from '../../src/engine/grammar.js';
import { isContentLink, isFileDescriptionLink, relVerdict } from '../../src/engine/links.js';
import { siteFromUrl } from '../../src/engine/site.js';
import { enContext, first } from './walk/harness.js';

const fr = () => createContext(siteFromUrl('https://fr.wikipedia.org/wiki/X'), 'fr');
const a = (attrs: string) => first(`<p><a ${attrs}>x</a></p>`, 'a');

/** Gad_Elmaleh.html, infobox "Nationalité": a flag icon, then the wiki link it stands beside. */
const FLAG_ICON =
  '<td><span class="flagicon"><span class="mw-image-border noviewer" typeof="mw:File" data-mw=\'{"caption":"Drapeau du Maroc"}\'>' +
  '<a href="./Fichier:Flag_of_Morocco.svg" class="mw-file-description" title="Drapeau du Maroc">' +
  '<img alt="Drapeau du Maroc" resource="./Fichier:Flag_of_Morocco.svg" src="//upload.wikimedia.org/wikipedia/commons/thumb/2/2c/Flag_of_Morocco.svg/20px-Flag_of_Morocco.svg.png" height="13" width="20" class="mw-file-element"/>' +
  '</a></span></span> <a rel="mw:WikiLink" href="./Maroc" title="Maroc">Marocaine</a></td>';

describe('rel first (Parsoid pages)', () => {
  it('classifies by the rel tokens of grammar/links.json', () => {
    expect(relVerdict(a('rel="mw:WikiLink" href="./Maroc"'))).toBe('link');
    expect(relVerdict(a('rel="mw:WikiLink/Interwiki" href="https://en.wiktionary.org/wiki/x"'))).toBe('link');
    expect(relVerdict(a('rel="mw:ExtLink nofollow" href="https://example.org/"')), 'one token of several').toBe('link');
    expect(relVerdict(a('rel="mw:MediaLink" href="//upload.wikimedia.org/a.ogg"'))).toBe('link');
    expect(relVerdict(a('rel="mw:referencedBy" href="./X#cite_ref-1"'))).toBe('not-link');
    expect(relVerdict(a('rel="mw:PageProp/Category" href="./Category:X"')), 'a mw:PageProp/ prefix').toBe('not-link');
  });

  it('says nothing when the rel holds no Parsoid token (skin pages: nofollow, discussion) or is absent', () => {
    expect(relVerdict(a('rel="nofollow" href="/wiki/Special:RecentChangesLinked/China"'))).toBeUndefined();
    expect(relVerdict(a('href="/wiki/Beijing"'))).toBeUndefined();
    expect(relVerdict(a('rel="mw:WikiLinkage" href="./X"')), 'tokens, not substrings').toBeUndefined();
  });

  it('a back-link of a reference list is no link even though its href resolves', () => {
    const li = first('<ol><li><a rel="mw:referencedBy" href="./X#cite_ref-1"><span>↑</span></a> <span>Source</span></li></ol>', 'li');
    expect(inline(li, enContext()).links).toEqual([]);
  });

  it('a red link stays text without a link, whatever its rel says', () => {
    const p = first('<p><a rel="mw:WikiLink" href="./Nowhere?action=edit&amp;redlink=1" class="new">Nowhere</a></p>', 'p');
    expect(inline(p, enContext())).toEqual({ value: 'Nowhere', links: [], citations: [] });
  });
});

describe('inline media', () => {
  it('a flag icon yields no text-less link to its File page; the link beside it is kept', () => {
    const out = inline(first(`<table><tr>${FLAG_ICON}</tr></table>`, 'td'), fr());
    expect(out.value).toBe('Marocaine');
    expect(out.links).toEqual([{ url: 'https://fr.wikipedia.org/wiki/Maroc', text: 'Marocaine' }]);
  });

  it('older Parsoid HTML without the class: the <a> whose href is its image\'s resource is the description link', () => {
    const html = '<p><span typeof="mw:Image"><a href="./File:Ribbon.png"><img resource="./File:Ribbon.png" src="//upload.wikimedia.org/r.png"/></a></span> Order</p>';
    const link = first(html, 'a');
    expect(isFileDescriptionLink(link)).toBe(true);
    expect(inline(first(html, 'p'), enContext()).links).toEqual([]);
  });

  it('a media element that links elsewhere ({{flagicon}}: link=Armenia) is a real link, with its image', () => {
    const html =
      '<p><span class="flagicon"><span class="mw-image-border" typeof="mw:File"><a href="./Armenia" title="Armenia">' +
      '<img alt="Armenia" resource="./File:Flag_of_Armenia.svg" src="//upload.wikimedia.org/a/23px-Flag_of_Armenia.svg.png" width="23" height="12"/></a></span></span> Armenia</p>';
    const link = first(html, 'a');
    expect(isFileDescriptionLink(link)).toBe(false);
    expect(inline(first(html, 'p'), enContext()).links).toEqual([
      { url: 'https://en.wikipedia.org/wiki/Armenia', images: [{ content_url: 'https://upload.wikimedia.org/a/23px-Flag_of_Armenia.svg.png', width: 23, height: 12, alternative_text: 'Armenia' }] },
    ]);
  });

  it('an audio file: the speaker icon\'s File link goes, and the mw:MediaLink "listen" (player chrome, grammar/noise.json audioLabels); a MediaLink labelled with content stays (Kyoto.html)', () => {
    const html =
      '<p>Kyoto <span class="unicode haudio"><span class="fn"><span style="white-space:nowrap" typeof="mw:File"><a href="./File:Ja-Kyoto.ogg" title="About this sound">' +
      '<img alt="About this sound" resource="./File:Ja-Kyoto.ogg" src="//upload.wikimedia.org/speaker.png" width="11" height="11"/></a></span>' +
      '<a rel="mw:MediaLink" href="//upload.wikimedia.org/wikipedia/commons/6/67/Ja-Kyoto.ogg" title="Ja-Kyoto.ogg">listen</a></span></span></p>';
    expect(inline(first(html, 'p'), enContext())).toEqual({ value: 'Kyoto', links: [], citations: [] });
    const labelled = html.replace('>listen<', '>Kyōto<');
    expect(inline(first(labelled, 'p'), enContext()).links).toEqual([{ url: 'https://upload.wikimedia.org/wikipedia/commons/6/67/Ja-Kyoto.ogg', text: 'Kyōto' }]);
  });

  it('a wiki link to a File page written as text ([[:File:X]]) is an ordinary link', () => {
    const p = first('<p><a rel="mw:WikiLink" href="./File:Map.png" title="File:Map.png">the map</a></p>', 'p');
    expect(inline(p, enContext()).links).toEqual([{ url: 'https://en.wikipedia.org/wiki/File:Map.png', text: 'the map' }]);
  });

  it('matches media typeofs as tokens with their subtypes, not as substrings', () => {
    expect(isMediaTypeof('mw:File')).toBe(true);
    expect(isMediaTypeof('mw:File/Thumb')).toBe(true);
    expect(isMediaTypeof('mw:Image/Frameless')).toBe(true);
    expect(isMediaTypeof('mw:FileX')).toBe(false);
    expect(isMediaTypeof('mw:Transclusion')).toBe(false);
  });
});

describe('skin-rendered pages (no rel): href and class guesses', () => {
  it('ordinary /wiki/ links are links; a.image (the file description link) is not', () => {
    const html =
      '<p><span class="flagicon"><a href="/wiki/File:Flag_of_France.svg" class="image" title="France"><img src="//upload.wikimedia.org/f.png" width="23" height="15"/></a></span>' +
      ' <a href="/wiki/France" title="France">France</a></p>';
    const out = inline(first(html, 'p'), enContext());
    expect(out.value).toBe('France');
    expect(out.links).toEqual([{ url: 'https://en.wikipedia.org/wiki/France', text: 'France' }]);
  });

  it('isContentLink: red links by href or class', () => {
    expect(isContentLink(a('href="/w/index.php?title=X&amp;action=edit&amp;redlink=1"'), '/w/index.php?title=X&action=edit&redlink=1')).toBe(false);
    expect(isContentLink(a('href="/wiki/X" class="new"'), '/wiki/X')).toBe(false);
    expect(isContentLink(a('href="/wiki/X"'), '/wiki/X')).toBe(true);
  });
});
