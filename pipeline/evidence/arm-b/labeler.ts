// The independent truth labeler of Arm B: direct HTTP with node's fetch, no browser. For each
// case it GETs the URL (following redirects on the manifest's origin only), applies the case's
// predicate to the final status and body, and records why the label is what it is.
//
// It shares nothing with the browser runner except the manifest: another client, another parser,
// no policy code. A case whose label contradicts its designed kind stops the labeling: the site
// is not the site the sample describes (not seeded, another site on the port …).
import { RStackError } from '../../../core/errors.ts';
import { sha256 } from '../../../core/hash.ts';
import { messages } from '../../../core/messages.ts';
import { apiUrls, evaluate, htmlTitle } from './predicate.ts';
import { refusal, type CaseLabel, type ProductionCase, type ProductionManifest } from './manifest.ts';
import { cookieHeader, readSession, type Session } from './session.ts';

export class RefusedRequest extends RStackError {
  constructor(readonly url: string, readonly reason: 'method' | 'host') {
    super(messages.armB.refused(url, reason), { exitCode: 2 });
  }
}

export interface DirectResponse { status: number; finalUrl: string; redirects: Array<{ url: string; status: number }>; body: string; bytes: number }

const maxRedirects = 5;

/** GET url the way a plain HTTP client does, refusing any hop off the origin before sending it. */
export async function fetchDirect(url: string, origin: string, timeoutMs = 15_000, session: Session | null = null): Promise<DirectResponse> {
  const redirects: DirectResponse['redirects'] = [];
  let current = url;
  for (;;) {
    const refused = refusal('GET', current, origin);
    if (refused) throw new RefusedRequest(current, refused);
    let res: Response;
    try {
      res = await fetch(current, {
        method: 'GET',
        redirect: 'manual',
        headers: {
          'user-agent': 'rstackbench-labeler/1 (direct-http)',
          accept: 'text/html,*/*',
          ...(session ? { ...session.headers, ...(cookieHeader(session, current) ? { cookie: cookieHeader(session, current)! } : {}) } : {}),
        },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new RStackError(messages.armB.fetchFailed(current, (cause as Error).message), { exitCode: 1, cause });
    }
    const location = res.headers.get('location');
    if (res.status >= 300 && res.status < 400 && location) {
      await res.arrayBuffer();
      redirects.push({ url: current, status: res.status });
      if (redirects.length > maxRedirects) throw new RStackError(messages.armB.tooManyRedirects(url), { exitCode: 1 });
      current = new URL(location, current).href;
      continue;
    }
    const buffer = Buffer.from(await res.arrayBuffer());
    return { status: res.status, finalUrl: current, redirects, body: buffer.toString('utf8'), bytes: buffer.length };
  }
}

/** What a label must look like for its designed kind; null when it fits. */
export function kindMismatch(kind: ProductionCase['kind'], status: number, truth: CaseLabel['truth']): string | null {
  const ok2xx = status >= 200 && status < 300;
  switch (kind) {
    case 'navigation': return ok2xx && truth === 'success' ? null : `expected a 2xx success, got ${status} ${truth}`;
    case 'http-404': return status === 404 && truth === 'failure' ? null : `expected status 404 and failure, got ${status} ${truth}`;
    case 'semantic-negative': return ok2xx && truth === 'failure' ? null : `expected a 2xx failure, got ${status} ${truth}`;
  }
}


export async function labelCase(c: ProductionCase, origin: string, session: Session | null = null): Promise<CaseLabel> {
  const r = await fetchDirect(c.url, origin, undefined, session);
  // the application's API, one direct GET per URL the predicate names (after the page, as a browser would)
  const api: NonNullable<CaseLabel['api']> = [];
  const responses: Record<string, { status: number; body: string }> = {};
  for (const url of apiUrls(c.predicate)) {
    const a = await fetchDirect(url, origin, undefined, session);
    responses[url] = { status: a.status, body: a.body };
    api.push({ url, status: a.status, body_sha256: sha256(a.body), body_bytes: a.bytes });
  }
  const { holds, clauses } = evaluate(c.predicate, { status: r.status, body: r.body, api: responses });
  return {
    case_id: c.id,
    kind: c.kind,
    url: c.url,
    truth: holds ? 'success' : 'failure',
    status: r.status,
    final_url: r.finalUrl,
    redirects: r.redirects,
    body_sha256: sha256(r.body),
    body_bytes: r.bytes,
    title: htmlTitle(r.body),
    ...(api.length ? { api } : {}),
    clauses,
  };
}

export interface LabelingResult { labels: CaseLabel[]; mismatches: string[] }

/** Labels every case in manifest order, one request at a time, in the manifest's session if it names one. */
export async function labelManifest(m: ProductionManifest, onCase?: (label: CaseLabel) => void): Promise<LabelingResult> {
  const labels: CaseLabel[] = [];
  const mismatches: string[] = [];
  const session = readSession(m);
  for (const c of m.cases) {
    const label = await labelCase(c, m.origin, session);
    labels.push(label);
    const wrong = kindMismatch(c.kind, label.status, label.truth);
    if (wrong) mismatches.push(`${c.id} (${c.kind}, ${c.url}): ${wrong}; ${label.clauses.map((k) => `${k.holds ? '✓' : '✗'} ${k.clause}`).join('; ')}`);
    onCase?.(label);
  }
  return { labels, mismatches };
}
