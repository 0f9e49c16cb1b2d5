// The logged-in session of a production sample whose pages need one (schemas/production-manifest
// `session`): prepared outside the browser by the site's own script, read here by both
// instruments. The browser context gets the cookies; the labeler sends the cookies whose path
// fits the request, and the extra headers (a REST nonce, say). The file holds secrets: it lives
// in the site's state folder and is never written into a manifest, a label or a trace row.
//
//   ARM_B_SESSION=path     overrides the manifest's session.file (relative paths: the code checkout)
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { RStackError, ValidationError } from '../../../core/errors.ts';
import { readJsonFile } from '../../../core/validate.ts';
import type { ProductionManifest } from './manifest.ts';

export interface SessionCookie { name: string; value: string; path: string }
export interface Session { file: string; cookies: SessionCookie[]; headers: Record<string, string> }

/** Where the manifest's session lives, or null when the sample needs none. */
export function sessionPath(m: Pick<ProductionManifest, 'session'>): string | null {
  const given = process.env.ARM_B_SESSION || m.session?.file;
  return given ? path.resolve(codeRoot, given) : null;
}

/** The manifest's session, or null when it needs none; a missing or malformed file is an error. */
export function readSession(m: Pick<ProductionManifest, 'session' | 'id'>): Session | null {
  const file = sessionPath(m);
  if (!file) return null;
  if (!fs.existsSync(file)) {
    throw new RStackError(`sample ${m.id} needs a logged-in session, and there is none at ${file}. Start its site, which prepares one (make production-editor), or set ARM_B_SESSION`, { exitCode: 1 });
  }
  const value = readJsonFile<Record<string, unknown>>(file);
  const cookies = value.cookies;
  if (!Array.isArray(cookies) || !cookies.every((c) => c && typeof c.name === 'string' && typeof c.value === 'string' && typeof c.path === 'string')) {
    throw new ValidationError(file, null, 'cookies', 'must be a list of {name, value, path}');
  }
  const headers = (value.headers ?? {}) as Record<string, unknown>;
  if (typeof headers !== 'object' || Object.values(headers).some((v) => typeof v !== 'string')) throw new ValidationError(file, null, 'headers', 'must map names to strings');
  return { file, cookies: cookies as SessionCookie[], headers: headers as Record<string, string> };
}

/** The Cookie header a browser would send for url: the cookies whose path is a prefix of its path. */
export function cookieHeader(session: Session, url: string): string | null {
  const p = new URL(url).pathname;
  const fits = (c: SessionCookie) => p === c.path || p.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`);
  const sent = session.cookies.filter(fits).map((c) => `${c.name}=${c.value}`);
  return sent.length ? sent.join('; ') : null;
}

/** The cookies for a Playwright context, on the origin's host. */
export function contextCookies(session: Session, origin: string) {
  const host = new URL(origin).hostname;
  return session.cookies.map((c) => ({ name: c.name, value: c.value, domain: host, path: c.path, httpOnly: true, sameSite: 'Lax' as const }));
}
