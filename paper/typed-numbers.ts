// Numbers typed into the paper's words rather than bound to analysis/out: digits and number words.
// The paper test runs it over paper/paper.html and every sentence of paper/explanations.json; a
// number there must be a placeholder ({{value ...}}, {{rate ...}}), never typed.
//
// ("first", "second" and "once" are left out: in prose they are mostly order, time and "as soon as".)
//
// Not numbers: placeholders; section and heading numbers (section 3.1, <h3>1.6 …); identifiers with digits in them (layers-amendment-4.md, v1, 5xx,
// HTTP-404, run ids); design parameters written with their unit (`750 ms`); HTML entities.

const numberWords = [
  'zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve',
  'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen', 'twenty', 'thirty', 'forty',
  'fifty', 'sixty', 'seventy', 'eighty', 'ninety', 'hundred', 'hundreds', 'thousand', 'thousands', 'dozen', 'dozens',
  'half', 'halves', 'third', 'thirds', 'quarter', 'quarters', 'twice', 'thrice', 'single', 'double', 'triple',
  'fourth', 'fifth', 'sixth', 'seventh', 'eighth', 'ninth', 'tenth', 'both',
];
// "all of the semantic negatives", "none of its rows": a count in words
const quantifierPhrases = /\b(all|none|most|every one|each one) of (the|its|their|these|those)\b/gi;

export function typedNumbers(text: string): string[] {
  const words = text
    .replace(/<style>[\s\S]*?<\/style>/g, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/<h[1-6][^>]*>[\d.]+/g, ' ') // heading numbers
    .replace(/\b(sections?|Sections?|Table|Fig\.|amendments?|Amendments?)\s+[\dIVX]+(\.[\dA-Z]+)*\b/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&[a-z]+;|&#\d+;/g, ' ')
    .replace(/\b\d+(\.\d+)? ?(ms|s)\b/g, ' ') // design parameters with their unit
    .replace(/[\w./-]*[A-Za-z][\w./-]*\d[\w./-]*|\b\d+[A-Za-z][\w-]*/g, ' '); // identifiers: layers-amendment-4.md, v1, 5xx
  const found: string[] = [];
  for (const m of words.matchAll(/\b\d+(?:[.,]\d+)?\s*%?/g)) found.push(m[0].trim());
  const wordRe = new RegExp(`\\b(${numberWords.join('|')})\\b`, 'gi');
  for (const m of words.matchAll(wordRe)) found.push(m[0]);
  for (const m of words.matchAll(quantifierPhrases)) found.push(m[0]);
  return found;
}
