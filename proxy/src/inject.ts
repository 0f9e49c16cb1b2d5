// Putting the page fault into a document without breaking it.
//
//   the app's response ─▶ a 2xx text/html body? (else: unchanged) ─▶ decoded (gzip, deflate, br, zstd:
//   mockttp's reader) ─▶ where <head> begins (parse5, on the bytes read as latin1, so that the
//   offsets are byte offsets in any ASCII-compatible charset and nothing is re-encoded but our own
//   ASCII script; after an early <meta charset>, which must stay in the first 1024 bytes) ─▶ a CSP
//   that forbids inline scripts: its nonce on our element, or our script's hash added to the
//   policy ─▶ encoded again as the app encoded it (an encoding Node cannot write: sent decoded, the
//   Content-Encoding header dropped) ─▶ the app's headers, in their order and case, with a new
//   Content-Length (and the CSP, when it had to change)
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import type { PageFault } from './plan.ts';

type Element = DefaultTreeAdapterMap['element'];
type Node = DefaultTreeAdapterMap['node'];

const scriptFile = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'faults', 'page-fault.js');
const placeholder = '/*FAULT*/null';
let source: string | undefined;

/** The browser side of the page fault (page-fault.js), without its leading comment. */
function pageFaultSource(): string {
  if (source === undefined) {
    const text = fs.readFileSync(scriptFile, 'utf8');
    const code = text.slice(text.indexOf('(function'));
    if (!code.includes(placeholder) || /<\/script|<!--/i.test(code) || /[^\x09\x0a\x0d\x20-\x7e]/.test(code)) {
      throw new Error(`${scriptFile}: must hold ${placeholder}, be ASCII, and hold no </script or <!--`);
    }
    source = code.trim();
  }
  return source;
}

/** What the script is told: the target and the fault's numbers (never the layer, severity or seed). */
export interface PageFaultSettings extends PageFault {
  selector: string;
  name: string;
  /** a transport fault's pop-up over this document (absent: none; the settings are then what they were before transport faults) */
  popup?: { title: string; button: string };
}

/** JSON that is safe inside a <script> element in any ASCII-compatible charset. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/[<>&\u2028\u2029]|[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The text of the injected <script> element: the page fault with its settings. */
export function pageFaultScript(settings: PageFaultSettings): string {
  return pageFaultSource().replace(placeholder, scriptJson(settings));
}

// ── where it goes
const location = (node: Node | undefined) => (node as Element | undefined)?.sourceCodeLocation ?? null;
const childElements = (node: Element | undefined) => (node?.childNodes ?? []).filter((n): n is Element => 'tagName' in n);

/** The byte offset at which a script element enters the document's head (bytes read as latin1). */
export function insertionOffset(latin1: string): number {
  // the head is what matters: parse up to the body (or all of a document without one)
  const bodyAt = latin1.search(/<body[\s>]/i);
  const doc = parse(bodyAt >= 0 ? latin1.slice(0, bodyAt) : latin1.slice(0, 1 << 20), { sourceCodeLocationInfo: true });
  const html = childElements(doc as unknown as Element).find((e) => e.tagName === 'html');
  const head = childElements(html).find((e) => e.tagName === 'head');
  let at = location(head)?.startTag?.endOffset
    ?? location(head?.childNodes[0])?.startOffset
    ?? location(html)?.startTag?.endOffset
    ?? location(doc.childNodes.find((n) => n.nodeName === '#documentType'))?.endOffset
    ?? 0;
  // an early <meta charset> (or http-equiv content-type) stays where the browser's prescan finds it
  for (const meta of childElements(head).filter((e) => e.tagName === 'meta')) {
    const names = meta.attrs.map((a) => a.name);
    const http = meta.attrs.find((a) => a.name === 'http-equiv')?.value.toLowerCase();
    const end = location(meta)?.endOffset;
    if (end !== undefined && end <= 1024 && end > at && (names.includes('charset') || http === 'content-type')) at = end;
  }
  return at;
}

// ── Content-Security-Policy
const sourceOf = (policy: string, name: string) =>
  policy.split(';').map((d) => d.trim().split(/\s+/)).find((d) => d[0]?.toLowerCase() === name);

/** The directive that governs a <script> element in a policy: script-src-elem, else script-src, else default-src. */
function scriptDirective(policy: string): string[] | undefined {
  return sourceOf(policy, 'script-src-elem') ?? sourceOf(policy, 'script-src') ?? sourceOf(policy, 'default-src');
}

const nonceIn = (directive: string[] | undefined) => directive?.map((s) => /^'nonce-([^']+)'$/.exec(s)?.[1]).find(Boolean);

/** Whether a directive lets an inline script without nonce or hash run ('unsafe-inline', which a nonce, a hash or 'strict-dynamic' switches off). */
function allowsAnyInline(directive: string[]): boolean {
  const sources = directive.slice(1).map((s) => s.toLowerCase());
  return sources.includes("'unsafe-inline'") && !sources.some((s) => /^'(nonce-|sha(256|384|512)-)/.test(s) || s === "'strict-dynamic'");
}

/**
 * A policy that lets the script run: unchanged when it allows it already (no script directive, its
 * 'unsafe-inline', or the nonce the element carries); else with the script's hash added to the
 * directive that governs it (to a script-src of its own when that is default-src, so that styles keep
 * their rules).
 */
export function allowScript(policy: string, nonce: string | undefined, hash: string): string {
  const directive = scriptDirective(policy);
  if (!directive || allowsAnyInline(directive) || (nonce && directive.includes(`'nonce-${nonce}'`))) return policy;
  const token = `'sha256-${hash}'`;
  const name = directive[0]!.toLowerCase();
  if (name === 'default-src') return `${policy.replace(/;?\s*$/, '')}; script-src ${directive.slice(1).join(' ')} ${token}`;
  return policy.split(';').map((d) => (d.trim().split(/\s+/)[0]?.toLowerCase() === name ? `${d.replace(/\s*$/, '')} ${token}` : d)).join(';');
}

// ── the response
export type HeaderValue = string | string[];
/** Response headers as the app wrote them: names in their case, in their order. */
export type CaseHeaders = Record<string, HeaderValue>;

/** Raw [name, value] pairs as an object keyed by the names as written (repeated names: an array). */
export function caseHeaders(raw: [string, string][]): CaseHeaders {
  const out: CaseHeaders = {};
  const byLower = new Map<string, string>();
  for (const [name, value] of raw) {
    const key = byLower.get(name.toLowerCase()) ?? name;
    byLower.set(name.toLowerCase(), key);
    const had = out[key];
    out[key] = had === undefined ? value : [...(Array.isArray(had) ? had : [had]), value];
  }
  return out;
}

const keyOf = (headers: CaseHeaders, lower: string) => Object.keys(headers).find((k) => k.toLowerCase() === lower);
const first = (v: HeaderValue | undefined) => (Array.isArray(v) ? v[0] : v);

const encoders: Record<string, (b: Buffer) => Buffer> = {
  gzip: (b) => zlib.gzipSync(b),
  'x-gzip': (b) => zlib.gzipSync(b),
  deflate: (b) => zlib.deflateSync(b),
  br: (b) => zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5 } }),
};

export interface AppResponse {
  statusCode: number;
  rawHeaders: [string, string][];
  /** the body as the app sent it, decoded (content-encoding undone) */
  decoded: () => Promise<Buffer | undefined>;
}

export type Injection =
  | { injected: true; headers: CaseHeaders; rawBody: Buffer; detail: string }
  | { injected: false; why: string };

/** The response with the page fault in its document, or why it is left as it is. */
export async function injectPageFault(response: AppResponse, settings: PageFaultSettings): Promise<Injection> {
  const headers = caseHeaders(response.rawHeaders);
  if (response.statusCode < 200 || response.statusCode > 299) return { injected: false, why: `status ${response.statusCode}` };
  const type = String(first(headers[keyOf(headers, 'content-type') ?? '']) ?? '').toLowerCase();
  if (!type.startsWith('text/html')) return { injected: false, why: `not HTML (${type || 'no content-type'})` };
  const charset = /charset=["']?([^;"'\s]+)/.exec(type)?.[1];
  if (charset && /^utf-?16|^utf-?32/.test(charset)) return { injected: false, why: `charset ${charset} is not ASCII-compatible` };
  const body = await response.decoded();
  if (body === undefined) throw new Error(`cannot decode the body (Content-Encoding ${first(headers[keyOf(headers, 'content-encoding') ?? '']) ?? 'none'})`);

  const policies = ['content-security-policy'].flatMap((n) => { const k = keyOf(headers, n); return k ? [k] : []; });
  const policyValues = policies.flatMap((k) => [headers[k]!].flat());
  const nonce = policyValues.map((p) => nonceIn(scriptDirective(p))).find(Boolean);
  const script = pageFaultScript(settings);
  const element = `<script${nonce ? ` nonce="${nonce.replace(/"/g, '&quot;')}"` : ''}>${script}</script>`;
  const latin1 = body.toString('latin1');
  const at = insertionOffset(latin1);
  const document = Buffer.concat([body.subarray(0, at), Buffer.from(element, 'latin1'), body.subarray(at)]);

  const hash = crypto.createHash('sha256').update(script, 'utf8').digest('base64');
  for (const k of policies) {
    const value = headers[k]!;
    headers[k] = Array.isArray(value) ? value.map((p) => allowScript(p, nonce, hash)) : allowScript(value, nonce, hash);
  }
  const encodingKey = keyOf(headers, 'content-encoding');
  const encoding = String(first(headers[encodingKey ?? '']) ?? 'identity').trim().toLowerCase();
  let rawBody: Buffer = document;
  if (encoding !== 'identity' && encoding !== '') {
    const encode = encoders[encoding];
    if (encode) rawBody = encode(document);
    else delete headers[encodingKey!];
  }
  const lengthKey = keyOf(headers, 'content-length');
  if (lengthKey) headers[lengthKey] = String(rawBody.length);
  return { injected: true, headers, rawBody, detail: `page fault at byte ${at}${nonce ? ' (CSP nonce)' : ''}${encoding !== 'identity' && encoding !== '' ? ` (${encoders[encoding] ? 're-encoded' : 'decoded'} ${encoding})` : ''}` };
}
