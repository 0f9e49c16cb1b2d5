// The semantic predicates of a production manifest, evaluated on a direct HTTP response. They
// are data (schemas/production-manifest.schema.json): status tests, and string tests on the raw
// body, the <title>, or the visible text, and tests on the JSON of the application's own API
// (another GET on the origin: for a client-rendered page, what its API returns is the direct
// evidence of what it should show). No CSS selectors and no browser: the labeler must not share
// an instrument with the policies it will score.

import { decode } from 'html-entities';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import type { ApiTest, Predicate, StatusTest, StringTest } from '../../../core/contracts.ts';

export type { ApiTest, Predicate, StatusTest, StringTest } from '../../../core/contracts.ts';

export interface HttpResult {
  status: number;
  body: string;
  /** the responses to the predicate's api URLs (apiUrls), fetched by the caller */
  api?: Record<string, { status: number; body: string }>;
}

export interface Clause { clause: string; holds: boolean }

/** HTML character references, named and numeric, as the HTML standard defines them (html-entities). */
export const decodeEntities = (s: string) => decode(s, { level: 'html5' });

const collapse = (s: string) => s.replace(/[\s\u00a0]+/g, ' ').trim();

type Node = DefaultTreeAdapterMap['node'];
const hidden = new Set(['head', 'script', 'style', 'noscript', 'template', 'svg']);

/** The text of a parsed node (parse5, as a browser parses HTML), each text node apart, hidden elements skipped. */
function textOf(node: Node, out: string[]): string[] {
  if (node.nodeName === '#text') out.push((node as DefaultTreeAdapterMap['textNode']).value);
  else if (!hidden.has(node.nodeName) && 'childNodes' in node) for (const child of node.childNodes) textOf(child, out);
  return out;
}

function find(node: Node, name: string): Node | undefined {
  if (node.nodeName === name) return node;
  if ('childNodes' in node) for (const child of node.childNodes) { const hit = find(child, name); if (hit) return hit; }
  return undefined;
}

/** The <title> of an HTML document, decoded and collapsed; '' when there is none. */
export function htmlTitle(html: string): string {
  const title = find(parse(html), 'title');
  return title && 'childNodes' in title ? collapse(title.childNodes.map((c) => (c.nodeName === '#text' ? (c as DefaultTreeAdapterMap['textNode']).value : '')).join('')) : '';
}

/** The visible text of an HTML document: no head, scripts, styles, templates, comments or tags. */
export function htmlText(html: string): string {
  return collapse(textOf(parse(html), []).join(' '));
}

/** Every URL the predicate's api clauses test, once each, in order of appearance. */
export function apiUrls(p: Predicate): string[] {
  const out: string[] = [];
  const walk = (q: Predicate): void => {
    if ('all' in q) q.all.forEach(walk);
    else if ('any' in q) q.any.forEach(walk);
    else if ('not' in q) walk(q.not);
    else if ('api' in q && !out.includes(q.api.url)) out.push(q.api.url);
  };
  walk(p);
  return out;
}

/** RFC 6901: the value a JSON Pointer leads to, or undefined when it leads nowhere. */
export function jsonPointer(doc: unknown, pointer: string): unknown {
  if (pointer === '') return doc;
  let at: unknown = doc;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(at) && /^(0|[1-9][0-9]*)$/.test(key)) at = at[Number(key)];
    else if (at !== null && typeof at === 'object' && !Array.isArray(at) && Object.hasOwn(at, key)) at = (at as Record<string, unknown>)[key];
    else return undefined;
  }
  return at;
}

const statusHolds = (status: number, t: StatusTest) => (t.equals !== undefined ? status === t.equals : (t.in ?? []).includes(status));
const describeStatus = (t: StatusTest) => (t.equals !== undefined ? `status equals ${t.equals}` : `status in [${(t.in ?? []).join(', ')}]`);

function testApi(t: ApiTest, responses: HttpResult['api']): { holds: boolean; clause: string } {
  const parts: string[] = [];
  if (t.status) parts.push(describeStatus(t.status));
  if (t.value) parts.push(describeString(t.pointer ? `value at ${t.pointer}` : 'document', t.value));
  const clause = `api ${t.url}: ${parts.join(' and ')}`;
  const r = responses?.[t.url];
  if (!r) return { holds: false, clause: `${clause} (not fetched)` };
  if (t.status && !statusHolds(r.status, t.status)) return { holds: false, clause };
  if (!t.value) return { holds: true, clause };
  let doc: unknown;
  try {
    doc = JSON.parse(r.body);
  } catch {
    return { holds: false, clause: `${clause} (the body is not JSON)` };
  }
  const value = jsonPointer(doc, t.pointer ?? '');
  if (value === undefined) return { holds: false, clause };
  return { holds: testString(typeof value === 'string' ? value : JSON.stringify(value), t.value), clause };
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
      holds = statusHolds(r.status, q.status);
      clause = describeStatus(q.status);
    } else if ('api' in q) {
      ({ holds, clause } = testApi(q.api, r.api));
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
