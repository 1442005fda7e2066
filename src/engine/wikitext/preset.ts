/**
 * The wikitext front door's rules, in the order they are tried on each top-level node (the first
 * whose test holds runs; see ./types.ts), the counterpart of the HTML door's HTML_PRESET
 * (../walk/preset.ts). Adding a construct: one module in ./rules, one line here, at the place its
 * order constraints (the comments) allow.
 */
import { container } from './rules/container.js';
import { description } from './rules/description.js';
import { heading } from './rules/heading.js';
import { horizontalRule } from './rules/horizontal-rule.js';
import { infobox } from './rules/infobox.js';
import { infoboxTable } from './rules/infobox-table.js';
import { inline } from './rules/inline.js';
import { layoutTable } from './rules/layout-table.js';
import { listMarker } from './rules/list-marker.js';
import { navigation } from './rules/navigation.js';
import { referenceList } from './rules/reference-list.js';
import { table } from './rules/table.js';
import { tableTemplateRule } from './rules/table-template.js';
import { text } from './rules/text.js';
import type { WikitextRule } from './types.js';

export const WIKITEXT_PRESET: readonly WikitextRule[] = [
  // First: most nodes are text.
  text,
  heading,
  // Before the table rules: an infobox written as a table is an infobox.
  infoboxTable,
  // Before table: a table that only places boxes is looked through, not read as data.
  layoutTable,
  table,
  tableTemplateRule,
  horizontalRule,
  listMarker,
  infobox,
  description,
  // After infobox and description: a box the grammar names is never navigation.
  referenceList,
  // After the named boxes; before navigation, whose structural test reads lists of links: a
  // container holds one content parameter, a navbox several.
  container,
  navigation,
  // Last: matches every node.
  inline,
];
