/**
 * Kept only for existing importers (impact/resolve-changes.ts): the one
 * did-you-mean implementation is source/suggest.ts. Import `closest` from
 * there; this alias goes away once nothing imports it.
 */
export { closest as didYouMean } from "../source/suggest.js";
