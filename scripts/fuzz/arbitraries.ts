/**
 * fast-check arbitraries of hostile page content: `data-mw` values of every shape, documents whose
 * Parsoid constructs carry them, and wikitext. Shared by the fuzzer (its seed pool when the corpus
 * is absent, its attribute mutations) and the property tests, so that both probe the same space.
 */
import { escapeAttribute } from 'entities';
import fc from 'fast-check';

/** JSON text of any value fast-check can make; `undefined` and the like serialise to nothing. */
function toJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'undefined';
  } catch {
    return 'undefined';
  }
}

/** Values a field of the wrong type may hold: the fuzzer's 24 crashes were `null` in these slots. */
const wrong = fc.oneof(
  fc.constant(null),
  fc.integer(),
  fc.boolean(),
  fc.string({ maxLength: 8 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.jsonValue({ maxDepth: 2 }),
);
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | unknown> => fc.oneof(arb, wrong);

/** Parameter names JavaScript objects treat specially, plus blank and padded ones. */
const paramName = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('__proto__', 'constructor', 'toString', ' 1 ', '', 'title', 'url'));
const templateName = fc.constantFrom('Cite book', 'cite web', 'Infobox person', 'Lien web', 'Reflist', '', ' ', '%%', 'Template:');
const template = fc.record(
  {
    target: maybe(fc.record({ wt: maybe(templateName), href: maybe(templateName.map((n) => `./Template:${n}`)) }, { requiredKeys: [] })),
    params: maybe(fc.dictionary(paramName, maybe(fc.record({ wt: maybe(fc.string({ maxLength: 12 })) }, { requiredKeys: [] })), { maxKeys: 4 })),
  },
  { requiredKeys: [] },
);
const part = fc.oneof(wrong, fc.record({ template: maybe(template) }, { requiredKeys: [] }), fc.record({ templatearg: wrong }));

/** data-mw objects shaped like Parsoid's, with any field of the wrong type. */
export const dataMwObject = fc.record(
  {
    parts: maybe(fc.array(part, { maxLength: 5 })),
    attrs: maybe(fc.record({ group: maybe(fc.string({ maxLength: 6 })) }, { requiredKeys: [] })),
    name: maybe(fc.constantFrom('references', 'ref', 'templatestyles')),
  },
  { requiredKeys: [] },
);

/** Large values: deep arrays (JSON.parse and any recursive reader), long parts lists, long strings. */
const huge = fc.oneof(
  fc.integer({ min: 1_000, max: 100_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 1_000, max: 5_000 }).map((n) => `{"parts":[${Array.from({ length: n }, (_, i) => `{"template":${i % 2 === 0 ? 'null' : `{"target":{"wt":"t${i}"},"params":{"p":{"wt":"v"}}}`}}`).join(',')}]}`),
  fc.integer({ min: 10_000, max: 1_000_000 }).map((n) => `{"parts":[{"template":{"target":{"wt":"Cite web"},"params":{"title":{"wt":"${'x'.repeat(n)}"}}}}]}`),
);

/** Any data-mw attribute value: valid JSON of any shape, invalid JSON, huge. */
export const dataMwValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: dataMwObject.map(toJson) },
  { weight: 2, arbitrary: fc.jsonValue().map(toJson) },
  { weight: 1, arbitrary: fc.anything().map(toJson) },
  { weight: 1, arbitrary: fc.constantFrom('null', '0', '""', '[]', '{}', '{"parts":null}', '{"parts":[null]}', '{"parts":[{"template":null}]}', '{"attrs":null}') },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: dataMwObject.chain((o) => fc.nat().map((n) => { const s = toJson(o); return s.slice(0, n % (s.length + 1)); })) },
  { weight: 1, arbitrary: huge },
);

/** ` data-mw="…"`, escaped as a serialiser would, or nothing. */
export const dataMwAttribute = fc.option(dataMwValue, { nil: undefined, freq: 4 }).map((v) => (v === undefined ? '' : ` data-mw="${escapeAttribute(v)}"`));

const words = fc.stringMatching(/^[a-zA-Z0-9 ,.;:()'"&é–-]{0,16}$/);
const text = words.map((w) => escapeAttribute(w));

/** Parsoid constructs that read, or sit next to, data-mw. */
const construct = fc.oneof(
  fc
    .tuple(dataMwAttribute, fc.array(fc.tuple(dataMwAttribute, dataMwAttribute, text), { minLength: 1, maxLength: 3 }))
    .map(
      ([list, entries]) =>
        `<ol class="mw-references references" typeof="mw:Extension/references"${list}>` +
        entries
          .map(([a, b, t], i) => `<li id="cite_note-${i + 1}"><span class="mw-reference-text"><span typeof="mw:Transclusion"${a}>${t}</span><cite typeof="mw:Transclusion"${b}>${t}</cite></span></li>`)
          .join('') +
        '</ol>',
    ),
  fc
    .tuple(dataMwAttribute, text, text)
    .map(([dm, label, value]) => `<table class="infobox" typeof="mw:Transclusion" about="#mwt1"${dm}><tr><th colspan="2">${label}</th></tr><tr><th>${label}</th><td>${value}</td></tr></table>`),
  fc
    .tuple(dataMwAttribute, dataMwAttribute, text)
    .map(
      ([head, box, value]) =>
        `<style typeof="mw:Extension/templatestyles mw:Transclusion" about="#mwt2"${head}>.x{}</style>` +
        `<table class="infobox vcard" about="#mwt2"${box}><tr><th>Born</th><td>${value}</td></tr></table>`,
    ),
  fc.tuple(dataMwAttribute, text).map(([dm, t]) => `<p>${t}<span typeof="mw:Transclusion" about="#mwt3"${dm}>${t}</span>${t}</p>`),
  fc
    .tuple(dataMwAttribute, text)
    .map(([dm, t]) => `<figure typeof="mw:File/Thumb"${dm}><a href="./File:X.jpg"><img src="//upload.wikimedia.org/x/X.jpg" width="100" height="50"/></a><figcaption>${t}</figcaption></figure>`),
  fc
    .tuple(dataMwAttribute, fc.integer({ min: 1, max: 3 }))
    .map(([dm, n]) => `<p>Claim.<sup typeof="mw:Extension/ref" class="mw-ref reference"${dm}><a href="./P#cite_note-${n}"><span class="mw-reflink-text">[${n}]</span></a></sup></p>`),
  fc.tuple(dataMwAttribute, text).map(([dm, t]) => `<section data-mw-section-id="1"${dm}><h2>${t}</h2><p>${t}</p></section>`),
  fc.tuple(dataMwAttribute, text).map(([dm, t]) => `<div class="navbox" typeof="mw:Transclusion"${dm}>${t}</div><table class="wikitable"${dm}><tr><th>${t}</th></tr><tr><td>${t}</td></tr></table>`),
);

/** A Parsoid document whose constructs carry arbitrary data-mw. */
export const dataMwDocument = fc
  .array(construct, { minLength: 1, maxLength: 6 })
  .map(
    (body) =>
      `<html><head><base href="//en.wikipedia.org/wiki/"/><meta property="mw:htmlVersion" content="2.8.0"/></head>` +
      `<body><section data-mw-section-id="0">${body.join('')}</section></body></html>`,
  );

const wikiWords = fc.stringMatching(/^[a-zA-Z0-9 ,.é-]{1,16}$/);

/** Wikitext built from the constructs the wikitext path reads. */
export const wikitextDocument = fc
  .array(
    fc.oneof(
      wikiWords.map((w) => `\n== ${w} ==\n`),
      wikiWords.map((w) => `${w} [[${w}]] '''${w}''' ''${w}''.\n`),
      fc.tuple(wikiWords, wikiWords).map(([a, b]) => `{{Infobox person\n| name = ${a}\n| birth_date = ${b}\n}}\n`),
      fc.tuple(wikiWords, fc.nat(3)).map(([w, n]) => `${w}<ref name="r${n}">{{cite web |title=${w} |url=https://e.org/${n}}}</ref> `),
      wikiWords.map((w) => `\n{| class="wikitable"\n! ${w}\n|-\n| ${w} || 2\n|}\n`),
      wikiWords.map((w) => `\n* ${w}\n** ${w}\n# ${w}\n`),
      wikiWords.map((w) => `[[File:X.jpg|thumb|${w}]]\n`),
      fc.constant('\n== References ==\n<references/>\n'),
    ),
    { minLength: 1, maxLength: 12 },
  )
  .map((xs) => xs.join(''));
