// The semantic predicates of a production manifest, evaluated on a direct HTTP response. They
// are data (schemas/production-manifest.schema.json): status tests, and string tests on the raw
// body, the <title>, or the visible text. No CSS selectors and no browser: the labeler must not
// share an instrument with the policies it will score.

import type { Predicate, StringTest } from '../../../core/contracts.ts';

export type { Predicate, StringTest } from '../../../core/contracts.ts';

export interface HttpResult { status: number; body: string }

export interface Clause { clause: string; holds: boolean }

const named: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', hellip: '…', ndash: '–', mdash: '—',
  lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', laquo: '«', raquo: '»', copy: '©', middot: '·',
};

export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] === '#') {
      const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return Number.isFinite(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return named[name.toLowerCase()] ?? whole;
  });
}

const collapse = (s: string) => s.replace(/[\s\u00a0]+/g, ' ').trim();

/** The <title> of an HTML document, decoded and collapsed; '' when there is none. */
export function htmlTitle(html: string): string {
  const m = /<title\b[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? collapse(decodeEntities(m[1]!)) : '';
}

/** The visible text of an HTML document: no head, scripts, styles, templates, comments or tags. */
export function htmlText(html: string): string {
  const stripped = html
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<head\b[\s\S]*?<\/head>/gi, ' ')
    .replace(/<(script|style|noscript|template|svg)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ');
  return collapse(decodeEntities(stripped));
}

function testString(subject: string, t: StringTest): boolean {
  const fold = (s: string) => (t.ignore_case ? s.toLowerCase() : s);
  const s = fold(subject);
  if (t.equals !== undefined && s !== fold(t.equals)) return false;
  if (t.contains !== undefined && !s.includes(fold(t.contains))) return false;
  if (t.not_contains !== undefined && s.includes(fold(t.not_contains))) return false;
  return true;
}

function describeString(field: string, t: StringTest): string {
  const parts = [];
  if (t.equals !== undefined) parts.push(`equals ${JSON.stringify(t.equals)}`);
  if (t.contains !== undefined) parts.push(`contains ${JSON.stringify(t.contains)}`);
  if (t.not_contains !== undefined) parts.push(`does not contain ${JSON.stringify(t.not_contains)}`);
  return `${field} ${parts.join(' and ')}${t.ignore_case ? ' (ignoring case)' : ''}`;
}

/**
 * Evaluates a predicate on a response. Returns whether it holds and every leaf clause with its
 * own result, so a label shows why it is what it is. Every leaf is evaluated (no short circuit).
 */
export function evaluate(p: Predicate, r: HttpResult): { holds: boolean; clauses: Clause[] } {
  const clauses: Clause[] = [];
  let text: string | undefined;
  let title: string | undefined;
  const walk = (q: Predicate): boolean => {
    if ('all' in q) return q.all.map(walk).every(Boolean);
    if ('any' in q) return q.any.map(walk).some(Boolean);
    if ('not' in q) return !walk(q.not);
    let holds: boolean;
    let clause: string;
    if ('status' in q) {
      holds = q.status.equals !== undefined ? r.status === q.status.equals : (q.status.in ?? ([] as number[])).includes(r.status);
      clause = q.status.equals !== undefined ? `status equals ${q.status.equals}` : `status in [${(q.status.in ?? []).join(', ')}]`;
    } else if ('text' in q) {
      text ??= htmlText(r.body);
      holds = testString(text, q.text);
      clause = describeString('text', q.text);
    } else if ('title' in q) {
      title ??= htmlTitle(r.body);
      holds = testString(title, q.title);
      clause = describeString('title', q.title);
    } else {
      holds = testString(r.body, q.body);
      clause = describeString('body', q.body);
    }
    clauses.push({ clause, holds });
    return holds;
  };
  return { holds: walk(p), clauses };
}
