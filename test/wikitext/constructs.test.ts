import { describe, expect, it } from 'vitest';
import { ArticleSchema, InputTooLargeError, InvalidInputError, parseWikitext } from '../../src/index.js';
import type { Article, Part } from '../../src/index.js';

const meta = { name: 'Test page', project: 'enwiki', language: 'en' };
const parseEn = (text: string): Article => {
  const article = parseWikitext(text, meta);
  ArticleSchema.parse(article);
  return article;
};
const lead = (a: Article): Part[] => a.sections[0]?.has_parts ?? [];
const names = (parts: readonly Part[] | undefined): string[] => (parts ?? []).filter((p) => p.type === 'section').map((p) => p.name ?? '');

describe('parseWikitext: metadata', () => {
  it('maps the meta fields and derives the URL from project and title', () => {
    const a = parseWikitext('Text.', { name: 'Albert Einstein', identifier: 736, revision: 42, dateModified: '2025-01-01T00:00:00Z', project: 'enwiki', language: 'en', namespace: 0 });
    expect(a.name, 'name').toBe('Albert Einstein');
    expect(a.identifier, 'page id').toBe(736);
    expect(a.version, 'revision → version').toEqual({ identifier: 42 });
    expect(a.date_modified, 'date_modified').toBe('2025-01-01T00:00:00Z');
    expect(a.is_part_of, 'project → is_part_of').toEqual({ identifier: 'enwiki', url: 'https://en.wikipedia.org' });
    expect(a.in_language, 'language').toEqual({ identifier: 'en' });
    expect(a.url, 'URL derived from project + title').toBe('https://en.wikipedia.org/wiki/Albert_Einstein');
  });

  it('omits what the meta does not say, and accepts empty wikitext', () => {
    const a = parseWikitext('');
    expect(ArticleSchema.safeParse(a).success, 'validates').toBe(true);
    expect(a.name, 'no name invented').toBeUndefined();
    expect(a.url, 'no URL invented').toBeUndefined();
    expect(a.sections, 'an empty lead only').toEqual([{ name: 'abstract', type: 'section' }]);
  });

  it('throws only typed errors', () => {
    expect(() => parseWikitext(42 as unknown as string), 'non-string').toThrow(InvalidInputError);
    expect(() => parseWikitext('x', { identifier: 'seven' } as unknown as { identifier: number }), 'bad meta field').toThrow(/meta\.identifier/);
    expect(() => parseWikitext('x'.repeat(2000), {}, { maxInputBytes: 1000 }), 'over the limit').toThrow(InputTooLargeError);
  });
});

describe('parseWikitext: sections', () => {
  it('nests headings by level, names the lead "abstract", drops boilerplate sections with their subsections', () => {
    const a = parseEn('Lead.\n== History ==\nH.\n=== Early ===\nE.\n==== Earliest ====\nX.\n== See also ==\n* [[Other]]\n=== Sub of boilerplate ===\nS.\n== Legacy ==\nL.');
    expect(names(a.sections), 'top level').toEqual(['abstract', 'History', 'Legacy']);
    const history = a.sections[1]!;
    expect(names(history.has_parts), 'nested level 3').toEqual(['Early']);
    expect(names(history.has_parts?.find((p) => p.name === 'Early')?.has_parts), 'nested level 4').toEqual(['Earliest']);
    expect(JSON.stringify(a), 'boilerplate subsection content gone').not.toContain('Sub of boilerplate');
  });

  it('uses the language for boilerplate titles', () => {
    const a = parseWikitext('Intro.\n== Biographie ==\nB.\n== Notes et références ==\nN.', { language: 'fr', project: 'frwiki' });
    expect(names(a.sections), 'fr boilerplate dropped').toEqual(['abstract', 'Biographie']);
  });
});

describe('parseWikitext: paragraphs', () => {
  it('removes formatting, keeps link text and gives absolute link URLs', () => {
    const [p] = lead(parseEn("'''Bold''' and ''italic'' [[quantum mechanics|QM]], [[Mass–energy equivalence#Mass–velocity relationship|E]] and [https://example.org/x site].<!-- hidden -->[[Category:Physics]]"));
    expect(p?.value, 'plain text').toBe('Bold and italic QM, E and site.');
    expect(p?.links, 'links').toEqual([
      { url: 'https://en.wikipedia.org/wiki/Quantum_mechanics', text: 'QM' },
      { url: 'https://en.wikipedia.org/wiki/Mass–energy_equivalence#Mass–velocity_relationship', text: 'E' },
      { url: 'https://example.org/x', text: 'site' },
    ]);
  });

  it('links other wikis, and reads interlanguage links as metadata, never text', () => {
    const [p] = lead(parseEn('See [[:fr:Paris|Paris (fr)]], [[wikt:word|word]] and [[Help:IPA|IPA]].[[fr:Albert Einstein]][[de:Albert Einstein]]'));
    expect(p?.value, 'no interlanguage text').toBe('See Paris (fr), word and IPA.');
    expect(p?.links?.map((l) => l.url), 'targets').toEqual([
      'https://fr.wikipedia.org/wiki/Paris',
      'https://en.wiktionary.org/wiki/word',
      'https://en.wikipedia.org/wiki/Help:IPA',
    ]);
  });

  it('prints the page name and case functions, never a magic word it cannot know', () => {
    const [p] = lead(parseEn('{{PAGENAME}} is {{lc:BIG}}, {{formatnum:1234}} in {{CURRENTYEAR}}.{{DISPLAYTITLE:x}}'));
    expect(p?.value, 'text').toBe('Test page is big, 1234 in.');
  });

  it('splits paragraphs at blank lines and joins single line breaks', () => {
    const parts = lead(parseEn('One\ntwo.\n\nThree.'));
    expect(parts.map((p) => p.value), 'two paragraphs').toEqual(['One two.', 'Three.']);
  });

  it('ends a paragraph at a line holding only a file or block template, and at a block quotation', () => {
    const parts = lead(parseEn('First.\n[[File:X.jpg|thumb|Cap]]\nSecond, stating:{{blockquote|Quoted words.}}\nThird.'));
    expect(parts.map((p) => `${p.type}:${p.value}`), 'blocks in order').toEqual([
      'paragraph:First.',
      'image:Cap',
      'paragraph:Second, stating:',
      'paragraph:Quoted words.',
      'paragraph:Third.',
    ]);
  });

  it('renders citation templates outside references as bibliography text', () => {
    const a = parseEn('== Works ==\n* {{cite book|last=Einstein|first=A.|title=Relativity|year=1916}}');
    expect(a.sections[1]?.has_parts?.[0]?.has_parts?.[0]?.value, 'list item text').toBe('Einstein, A. (1916). Relativity.');
    expect(a.references, 'not a footnote').toEqual([]);
  });

  it('drops unknown templates, magic words and __TOC__, renders known inline templates', () => {
    const [p] = lead(parseEn('{{Use dmy dates|date=May 2020}}__TOC__{{DISPLAYTITLE:x}}A {{convert|5|km}} walk, {{lang|de|Wanderung}}, {{nowrap|no break}}{{Unknown template|mode=text}}.'));
    // An unknown template's positional text is kept (leaks.test.ts); its named parameters never are.
    expect(p?.value, 'text of known templates only').toBe('A 5 km walk, Wanderung, no break.');
  });
});

describe('parseWikitext: dates', () => {
  it('formats date templates in the article language', () => {
    const fr = parseWikitext('Née le {{Date de naissance|17|11|1994|âge=oui}}, le {{date|28|août|1963}}.', { language: 'fr' });
    expect(fr.sections[0]?.has_parts?.[0]?.value, 'fr dates').toBe('Née le 17 novembre 1994, le 28 août 1963.');
    const en = parseEn('Born {{birth date|1879|3|14|df=y}}, died {{death date and age|1955|4|18|1879|3|14}}.');
    expect(lead(en)[0]?.value, 'en dates, age left out').toBe('Born 14 March 1879, died 18 April 1955.');
  });
});

describe('parseWikitext: lists', () => {
  it('keeps nesting and definition lists', () => {
    const a = parseEn('Intro:\n* one [[A]]\n** one.one\n* two\n# first\n;Term\n:Definition');
    const lists = lead(a).filter((p) => p.type === 'list');
    expect(lists.length, 'one list block').toBe(1);
    const items = lists[0]!.has_parts!;
    expect(items[0], 'first item with a nested list').toMatchObject({
      type: 'list_item',
      value: 'one A',
      links: [{ url: 'https://en.wikipedia.org/wiki/A', text: 'A' }],
      has_parts: [{ type: 'list', has_parts: [{ type: 'list_item', value: 'one.one' }] }],
    });
    expect(items.map((i) => i.value), 'all top items').toEqual(['one A', 'two', 'first', 'Term', 'Definition']);
  });
});

describe('parseWikitext: images', () => {
  it('turns [[File:…|thumb|caption]] into an image part with a Special:FilePath URL', () => {
    const a = parseEn('== S ==\n[[File:Einstein 1921.jpg|thumb|upright|alt=A man|Einstein in [[Berlin]]]]\nText.');
    const img = a.sections[1]?.has_parts?.find((p) => p.type === 'image');
    expect(img, 'image part').toEqual({
      type: 'image',
      value: 'Einstein in Berlin',
      links: [{ url: 'https://en.wikipedia.org/wiki/Berlin', text: 'Berlin' }],
      images: [{ content_url: 'https://en.wikipedia.org/wiki/Special:FilePath/Einstein_1921.jpg', caption: 'Einstein in Berlin', alternative_text: 'A man' }],
    });
  });

  it('knows the file namespace and image keywords of other languages', () => {
    const a = parseWikitext('[[Fichier:Baker.jpg|vignette|gauche|Joséphine Baker.]]\nTexte.', { project: 'frwiki', language: 'fr' });
    const img = lead(a).find((p) => p.type === 'image');
    expect(img?.value, 'caption, not a keyword').toBe('Joséphine Baker.');
    expect(img?.images?.[0]?.content_url, 'fr host').toBe('https://fr.wikipedia.org/wiki/Special:FilePath/Baker.jpg');
    expect(lead(a).find((p) => p.type === 'paragraph')?.value, 'file is not text').toBe('Texte.');
  });
});

describe('parseWikitext: galleries', () => {
  it('turns each gallery image into an image part', () => {
    const a = parseEn('<gallery>\nFile:A.jpg|First [[x]]\nB.png\n</gallery>\nAfter.');
    const images = lead(a).filter((p) => p.type === 'image');
    expect(images.map((p) => p.images?.[0]?.content_url), 'two images').toEqual([
      'https://en.wikipedia.org/wiki/Special:FilePath/A.jpg',
      'https://en.wikipedia.org/wiki/Special:FilePath/B.png',
    ]);
    expect(images[0]?.value, 'caption').toBe('First x');
  });
});

describe('parseWikitext: infoboxes', () => {
  it('reads parameters as fields with clean values, skips image parameters', () => {
    const a = parseEn('{{Infobox person\n| name = Ada Lovelace\n| image = Ada.jpg\n| caption = Portrait\n| birth_date = {{birth date|1815|12|10}}\n| birth_place = [[London]], England\n| spouse = \n| known_for = \'\'Notes\'\'<ref>{{cite book|title=Ada|year=2001}}</ref>\n}}\nAda was.');
    expect(a.infoboxes, 'one infobox').toHaveLength(1);
    expect(a.infoboxes[0], 'shape').toMatchObject({
      name: 'Infobox person',
      type: 'infobox',
      has_parts: [
        {
          type: 'section',
          name: 'Ada Lovelace',
          has_parts: [
            { type: 'image', value: 'Portrait', images: [{ content_url: 'https://en.wikipedia.org/wiki/Special:FilePath/Ada.jpg', caption: 'Portrait' }] },
            { type: 'field', name: 'birth_date', value: '10 December 1815' },
            { type: 'field', name: 'birth_place', value: 'London, England', links: [{ url: 'https://en.wikipedia.org/wiki/London', text: 'London' }] },
            { type: 'field', name: 'known_for', value: 'Notes', citations: [{ identifier: 'cite_note-1', text: '[1]' }] },
          ],
        },
      ],
    });
    expect(lead(a).map((p) => p.value), 'infobox is not text').toEqual(['Ada was.']);
  });

  it('reads list modules and list templates in fields', () => {
    const a = parseEn('{{Infobox officeholder\n| 1namedata = {{#invoke:collapsible list|main|title=List|[[Franz Müntefering]]|Olaf Scholz}}\n| president = {{plainlist|\n* [[Horst Köhler]]\n* Joachim Gauck\n}}\n}}');
    const fields = a.infoboxes[0]?.has_parts?.[0]?.has_parts ?? [];
    // The list's title leads its items, as the HTML door writes a lead-in and its sub-list.
    expect(fields.map((f) => f.value), 'items joined').toEqual(['List (Franz Müntefering; Olaf Scholz)', 'Horst Köhler; Joachim Gauck']);
    expect(fields.map((f) => f.has_parts?.length), 'one lead-in item; two items').toEqual([1, 2]);
  });

  it('recognizes infoboxes of other wikis and embedded infoboxes as sections', () => {
    const fr = parseWikitext('{{Infobox Biographie2\n| conjoint = Jean Lion\n}}\nTexte.', { language: 'fr' });
    expect(fr.infoboxes[0]?.name, 'fr infobox').toBe('Infobox Biographie2');
    const es = parseWikitext('{{Ficha de persona\n| nombre = X\n| ocupación = físico\n}}', { language: 'es' });
    expect(es.infoboxes[0]?.has_parts?.[0]?.name, 'es title param').toBe('X');
    const embedded = parseEn('{{Infobox officeholder\n| office = Chancellor\n| module = {{Infobox scientist|embed=yes|fields = [[Chemistry]]}}\n}}');
    expect(embedded.infoboxes, 'one infobox').toHaveLength(1);
    expect(embedded.infoboxes[0]?.has_parts?.map((s) => s.name), 'embedded one is a second section').toEqual(['Test page', 'Infobox scientist']);
  });
});

describe('parseWikitext: references and citations', () => {
  it('takes type and metadata from citation templates', () => {
    const a = parseEn('Claim.<ref>{{cite journal |last=Smith |first=J. |title=On Things |journal=Nature |year=2001 |doi=10.1/x}}</ref> Other.<ref>Plain [http://a.example/ text] note.</ref>');
    expect(a.references[0], 'journal').toMatchObject({
      identifier: 'cite_note-1',
      type: 'journal',
      metadata: { last: 'Smith', first: 'J.', title: 'On Things', journal: 'Nature', year: '2001', doi: '10.1/x' },
      text: { value: 'Smith, J. (2001). On Things. Nature.' },
    });
    expect(a.references[1], 'plain text reference').toMatchObject({ identifier: 'cite_note-2', type: 'text', metadata: {}, text: { value: 'Plain text note.', links: [{ url: 'http://a.example/', text: 'text' }] } });
  });

  it('reuses a named reference: one Reference, several citations, list-defined refs resolved', () => {
    const a = parseEn('A.<ref name="x">{{cite web|title=X|url=https://x.example}}</ref> B.<ref name="x"/>\n* Item<ref name=x /><ref name="late"/>\n== References ==\n{{reflist|refs=\n<ref name="late">Late definition.</ref>\n}}');
    expect(a.references.map((r) => r.identifier), 'two references').toEqual(['cite_note-x-1', 'cite_note-late-2']);
    expect(a.references[0]?.type, 'web').toBe('web');
    expect(a.references[1]?.text.value, 'list-defined text').toBe('Late definition.');
    const [p, list] = lead(a);
    expect(p?.citations, 'paragraph cites x twice').toEqual([
      { identifier: 'cite_note-x-1', text: '[1]' },
      { identifier: 'cite_note-x-1', text: '[1]' },
    ]);
    expect(list?.has_parts?.[0]?.citations, 'list item citations').toEqual([
      { identifier: 'cite_note-x-1', text: '[1]' },
      { identifier: 'cite_note-late-2', text: '[2]' },
    ]);
  });

  it('reads {{#tag:ref}} as a reference', () => {
    const a = parseEn('A.{{#tag:ref|Tagged [[x]].|name=t}} B.{{#tag:ref||name=t}}');
    expect(a.references, 'one reference').toMatchObject([{ identifier: 'cite_note-t-1', text: { value: 'Tagged x.' } }]);
    expect(lead(a)[0]?.citations?.map((c) => c.identifier), 'cited twice').toEqual(['cite_note-t-1', 'cite_note-t-1']);
  });

  it('numbers groups separately and reads {{sfn}} and {{efn}}', () => {
    const a = parseEn('A.<ref group="note">N</ref> B.{{sfn|Smith|2001|p=5}} C.{{efn|Explained.<ref>Inner source.</ref>}} D.{{sfn|Smith|2001|p=5}} E.{{sfnp|Lee|Kim|1999|pp=3–4}}');
    const [p] = lead(a);
    expect(p?.citations?.map((c) => c.text), 'markers').toEqual(['[note 1]', '[1]', '[lower-alpha 1]', '[1]', '[3]']);
    expect(a.references.find((r) => r.identifier.startsWith('cite_note-FOOTNOTELeeKim1999'))?.text.value, 'sfnp text').toBe('Lee & Kim (1999), pp. 3–4.');
    const sfn = a.references.find((r) => r.type === 'short');
    expect(sfn?.text.value, 'short footnote text').toBe('Smith 2001, p. 5.');
    expect(a.references.find((r) => r.group === 'lower-alpha')?.text.value, 'efn text').toBe('Explained.');
    expect(a.references.map((r) => r.text.value), 'sfn reused; the note\'s own reference listed').toEqual(['N', 'Smith 2001, p. 5.', 'Explained.', 'Inner source.', 'Lee & Kim (1999), pp. 3–4.']);
  });

  it('writes a short footnote\'s page as the page shows it, its id from the parameters as written', () => {
    const a = parseEn('A.{{sfn|Stachel|2002|pp=[{{GBurl|id=OAsQ_hFjhrAC|p=59}} 59–61]}} B.{{sfn|Neffe|2007|p=[https://archive.org/details/x/page/203 203]}} C.{{sfn|Rosette|2007|p={{page needed|date=September 2021}}}} D.{{sfn|OpenStax|2014|loc=§ [https://openstax.org/x 8.1]}}');
    expect(a.references.map((r) => r.text.value)).toEqual(['Stachel 2002, pp. 59–61.', 'Neffe 2007, p. 203.', 'Rosette 2007.', 'OpenStax 2014, § 8.1.']);
    expect(a.references[0]?.identifier, 'Module:Footnotes\' id').toBe('cite_note-FOOTNOTEStachel2002[{{GBurl|id=OAsQ_hFjhrAC|p=59}}_59–61]-1');
  });

  it('reads {{r|a|b}} as uses of named references defined elsewhere, in the order cited', () => {
    const a = parseEn('A.{{r|late|x|p=12}} B.<ref name="x">X source.</ref> C.{{R|missing}}{{r|x}}\n== References ==\n{{reflist|refs=\n<ref name="late">Late definition.</ref>\n}}');
    expect(a.references.map((r) => [r.identifier, r.text.value]), 'each defined reference once, numbered by first use').toEqual([
      ['cite_note-late-1', 'Late definition.'],
      ['cite_note-x-2', 'X source.'],
    ]);
    expect(lead(a)[0]?.citations, 'one citation per name; an undefined name cites nothing').toEqual([
      { identifier: 'cite_note-late-1', text: '[1]' },
      { identifier: 'cite_note-x-2', text: '[2]' },
      { identifier: 'cite_note-x-2', text: '[2]' },
      { identifier: 'cite_note-x-2', text: '[2]' },
    ]);
    expect(lead(a)[0]?.value, 'names and page numbers are no text').toBe('A. B. C.');
    const grouped = parseEn('A.{{r|n|group=note}}\n{{reflist|group=note|refs=<ref name="n">Note.</ref>}}');
    expect(lead(grouped)[0]?.citations, 'group= of the call').toEqual([{ identifier: 'cite_note-n-1', text: '[note 1]' }]);
  });
});

describe('parseWikitext: tables', () => {
  it('expands spans and scores the grid, placing a table part', () => {
    const a = parseEn('== Data ==\n{| class="wikitable"\n|+ Results\n! Year !! Team !! Score\n|-\n| rowspan="2" | 2001 || A || 1\n|-\n| B || 2\n|-\n| colspan="2" | Total || 3\n|}');
    expect(a.tables, 'one table').toHaveLength(1);
    const t = a.tables[0]!;
    expect(t.headers, 'header row').toEqual([[{ value: 'Year' }, { value: 'Team' }, { value: 'Score' }]]);
    expect(t.rows, 'spans expanded').toEqual([
      [{ value: '2001' }, { value: 'A' }, { value: '1' }],
      [{ value: '2001' }, { value: 'B' }, { value: '2' }],
      [{ value: 'Total' }, { value: 'Total' }, { value: '3' }],
    ]);
    expect(t.confidence_score, 'a regular data table scores high').toBeGreaterThan(0.8);
    const part = a.sections[1]?.has_parts?.find((p) => p.type === 'table');
    expect(part, 'table part').toEqual({ type: 'table', value: 'Results', table_references: [{ identifier: 'data_table1', confidence_score: t.confidence_score }] });
  });
});

describe('parseWikitext: description and abstract', () => {
  it('reads {{short description}} and cuts pronunciation from the abstract', () => {
    const a = parseEn("{{Short description|German-born physicist}}\n'''Albert Einstein''' ({{IPAc-en|ˈ|aɪ|n|s|t|aɪ|n}}; 14 March 1879 – 18 April 1955) was a physicist.\n\nHe worked.");
    expect(a.description, 'description').toBe('German-born physicist');
    expect(a.abstract, 'abstract without the pronunciation parenthesis').toBe('Albert Einstein was a physicist.\nHe worked.');
    expect(lead(a)[0]?.value, 'paragraph keeps it').toBe('Albert Einstein (/ˈaɪnstaɪn/; 14 March 1879 – 18 April 1955) was a physicist.');
  });

  it('cuts a guide sharing its parenthesis with dates the same way', () => {
    const a = parseEn("'''X''' ({{IPA|de|ɪks}}, born 1900) is a name.");
    expect(a.abstract, 'whole parenthesis cut').toBe('X is a name.');
  });
});

describe('parseWikitext: a citation template followed by the author\'s punctuation', () => {
  it('ends with that punctuation, not with a second period', () => {
    const a = parseEn('A claim.<ref>{{cite web|title=Diplomatic Berlin|url=https://example.org/}}. Seen 2010.</ref> More.<ref>{{cite web|title=Temperatures|publisher=DWD}}, and rain.</ref>\n\n== Notes ==\n<references/>');
    expect(a.references.map((r) => r.text.value)).toEqual(['Diplomatic Berlin. Seen 2010.', 'Temperatures. DWD, and rain.']);
  });
});
