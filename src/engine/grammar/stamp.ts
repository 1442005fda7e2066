/**
 * The stamp of the grammar files the build validated, or undefined: in the sources it is always
 * undefined (tsx, the tests and the explorer's bundle validate the files at every load); `npm run
 * build` validates them once and writes this module's compiled copy, dist/src/engine/grammar/stamp.js,
 * anew with their stamp (scripts/build-grammar-stamp.ts). ./load.ts skips zod when the files it
 * imports still have it, and validates them as before when they do not: an installed package
 * whose dist/grammar/*.json someone edited, a dist compiled by tsc alone.
 */
export const VALIDATED_GRAMMAR_STAMP: string | undefined = undefined;
