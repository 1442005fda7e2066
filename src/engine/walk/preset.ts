/**
 * The HTML front door's rules, in the order they are tried on each element at block level (the
 * first whose test holds runs; see ./types.ts). Adding a construct: one module beside these, one
 * line here, at the place its order constraints (the comments) allow.
 */
import { boilerplateSkip } from './boilerplate-skip.js';
import { container } from './container.js';
import { depthCap } from './depth-cap.js';
import { figure } from './figure.js';
import { formula } from './formula.js';
import { gallery } from './gallery.js';
import { heading } from './heading.js';
import { infobox } from './infobox.js';
import { inlineRun } from './inline-run.js';
import { layoutTable } from './layout-table.js';
import { list } from './list.js';
import { noise } from './noise.js';
import { notInAbstract } from './not-in-abstract.js';
import { paragraph } from './paragraph.js';
import { referenceLists } from './reference-lists.js';
import { section } from './section.js';
import { shortDescription } from './short-description.js';
import { table } from './table.js';
import type { Rule } from './types.js';

export const HTML_PRESET: readonly Rule[] = [
  // First: inside a skipped boilerplate section of a flat page nothing else applies.
  boilerplateSkip,
  // Before noise: the MathML holding a formula's TeX is hidden with display:none.
  formula,
  // Before noise: the description's element is hidden, hence noise, but read.
  shortDescription,
  // Before noise: reference lists are noise as content, but their entries are read.
  referenceLists,
  noise,
  // Everything after this sees block elements only, and ends the pending paragraph first.
  inlineRun,
  // Before every block rule: past the cap, recursion stops whatever the block is.
  depthCap,
  heading,
  section,
  paragraph,
  // Before list: a gallery is a <ul>.
  gallery,
  list,
  // Before figure: a floated quote box carries `floatright`, a rendered-page figure class, and
  // the figure rule would drop it for want of an image. Before container, the rule it refines.
  notInAbstract,
  figure,
  // Before the table rules: most infoboxes are tables.
  infobox,
  // Before table: a layout table would otherwise be read as data.
  layoutTable,
  table,
  // Last: matches every element.
  container,
];
