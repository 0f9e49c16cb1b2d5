// The Arm B contracts arm's contracts (prereg/drafts/evidence-arm-b-contracts.md): for each case of a
// production sample, what success of its navigation means, declared before it runs, from the case's
// URL alone (never from its truth predicate or its label).
//
//   URL                                                   kind          semantic                      re-read
//   a path on the origin, no query, not /wp-admin/        front-end     main h1, not body.error404    REST posts|pages by slug: that title
//     the front page (/)                                  front-page    body.home, not .error404      REST /wp-json/: the site's name in <title>
//   ?s=terms                                              search        a result set: a result holds a term; explicitly empty fails
//   /wp-admin/site-editor.php?postType=wp_template[_part]&postId=theme//slug
//                                                         site-editor   REST templates|template-parts/<id>: 200, that id    the editor's document bar shows its title
//   /wp-admin/post.php?post=N&action=edit                 block-editor  REST posts|pages/N: 200, that id                    the editor's title field holds its raw title
//   anything else                                         other         a non-empty <title>, not body.error404 (nothing a read-back could check)
//
// Every contract: the action is the navigation (navigates: true), the request a GET of the case's
// URL as the document, transport 2xx success and 4xx/5xx failure, a network error a failure, the
// navigation bound as the timeout, and ambiguity fails. The reads run inside the page (fetch from the
// document), so the trial's GET-only guard sees them like every other request, and the session's
// cookies and REST nonce go with them as a logged-in editor's would.
import type { ContractTerms, ReadContext } from '../../../verifier/src/index.ts';
import { production } from '../../../core/evidence/production.ts';
import type { ProductionCase, ProductionManifest } from './manifest.ts';

export type UrlKind = 'front-page' | 'front-end' | 'search' | 'site-editor' | 'block-editor' | 'other';

/** What a case's URL asks for, read from the URL only. */
export function urlKind(url: string): UrlKind {
  const u = new URL(url);
  const q = u.searchParams;
  if (u.pathname === '/wp-admin/site-editor.php' && /^wp_template(_part)?$/.test(q.get('postType') ?? '') && /^[^/]+\/\/[^/]+$/.test(q.get('postId') ?? '')) return 'site-editor';
  if (u.pathname === '/wp-admin/post.php' && /^\d+$/.test(q.get('post') ?? '') && q.get('action') === 'edit') return 'block-editor';
  if (u.pathname.startsWith('/wp-admin/') || u.pathname.startsWith('/wp-json/')) return 'other';
  if (q.has('s') && [...q.keys()].every((k) => k === 's')) return (q.get('s') ?? '').trim() ? 'search' : 'other';
  if (u.search !== '') return 'other';
  return u.pathname === '/' ? 'front-page' : 'front-end';
}

/** A GET from inside the page, through the trial's guard: its status and its JSON body (null when none). */
async function fetchInPage(ctx: ReadContext, url: string, headers: Record<string, string>): Promise<{ status: number; body: unknown }> {
  return ctx.page.evaluate(async ({ url, headers }) => {
    const res = await fetch(url, { method: 'GET', headers, credentials: 'same-origin', cache: 'no-store' });
    const text = await res.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the body is not evidence of anything here
    }
    return { status: res.status, body };
  }, { url, headers });
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const textOf = (v: unknown) => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : '');
/** WordPress's rendered titles are HTML: entities and tags out, for a comparison with what the page shows. */
export const plainTitle = (html: unknown) => textOf(String(html ?? '').replace(/<[^>]*>/g, '').replace(/&#8217;|&rsquo;/g, '’').replace(/&#8216;|&lsquo;/g, '‘').replace(/&amp;/g, '&').replace(/&quot;|&#8220;|&#8221;/g, '"').replace(/&#0?39;/g, "'"));

interface TitleObject { id?: unknown; title?: { rendered?: unknown; raw?: unknown } }
const asObject = (v: unknown): TitleObject | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as TitleObject) : null);

/** The editor screen's title, in the page or in the editor's canvas frame, or null while it shows none. */
async function editorText(ctx: ReadContext, selectors: readonly string[]): Promise<string | null> {
  for (const frame of ctx.page.frames()) {
    for (const selector of selectors) {
      const text = await frame.locator(selector).first().textContent({ timeout: 50 }).catch(() => null);
      if (text && text.trim()) return textOf(text);
    }
  }
  return null;
}

export interface CaseContract {
  kind: UrlKind;
  terms: ContractTerms;
  /** what the contract checks, in words, for the trace row and the prereg's table */
  summary: string;
}

/** The contract for one case of a sample; `headers` are the session's extra headers (the REST nonce), for the in-page reads. */
export function caseContract(manifest: Pick<ProductionManifest, 'origin'>, c: Pick<ProductionCase, 'id' | 'url'>, headers: Record<string, string> = {}): CaseContract {
  const kind = urlKind(c.url);
  const u = new URL(c.url);
  const rest = (p: string) => `${manifest.origin}/wp-json/${p}`;
  const base = {
    id: c.id,
    request: { method: 'GET', url: new RegExp(`^${escapeRegExp(c.url)}$`) },
    transport: { success: [[200, 299]] as const, failure: [[400, 599]] as const, networkError: 'failure' as const },
    timeoutMs: production.navigationBoundMs,
    ambiguity: 'fail' as const,
    navigates: true,
  } satisfies Partial<ContractTerms>;
  switch (kind) {
    case 'front-page':
      return {
        kind,
        summary: 'the front page (body.home, not body.error404); re-read: the REST index names the site whose name the <title> holds',
        terms: {
          ...base,
          semantic: { kind: 'dom', success: 'body.home', negative: ['body.error404'] },
          reread: {
            read: async (ctx) => ({ index: await fetchInPage(ctx, rest('?_fields=name'), {}), title: await ctx.page.title() }),
            holds: (v) => {
              const { index, title } = v as { index: { status: number; body: unknown }; title: string };
              const name = textOf((index.body as { name?: unknown } | null)?.name);
              return index.status === 200 && name !== '' && textOf(title).includes(name);
            },
          },
        },
      };
    case 'front-end': {
      const slug = decodeURIComponent(u.pathname.split('/').filter(Boolean).at(-1) ?? '');
      return {
        kind,
        summary: `a post or page title (main h1), not body.error404; re-read: REST posts|pages?slug=${slug} has that title`,
        terms: {
          ...base,
          semantic: { kind: 'dom', success: 'main h1', negative: ['body.error404'] },
          reread: {
            read: async (ctx) => {
              const h1 = textOf(await ctx.page.locator('main h1').first().textContent({ timeout: 50 }).catch(() => null));
              const items: unknown[] = [];
              for (const type of ['posts', 'pages']) {
                const r = await fetchInPage(ctx, rest(`wp/v2/${type}?slug=${encodeURIComponent(slug)}&_fields=id,title`), {});
                if (r.status === 200 && Array.isArray(r.body)) items.push(...r.body);
              }
              return { h1, titles: items.map((i) => plainTitle(asObject(i)?.title?.rendered)) };
            },
            holds: (v) => {
              const { h1, titles } = v as { h1: string; titles: string[] };
              return h1 !== '' && titles.includes(h1);
            },
          },
        },
      };
    }
    case 'search': {
      const terms = (u.searchParams.get('s') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
      return {
        kind,
        summary: `a result holds one of ${JSON.stringify(terms)} (case ignored); an explicitly empty result fails`,
        terms: {
          ...base,
          semantic: {
            kind: 'result-set',
            // the results once the document is parsed: [] only when the page says explicitly that nothing matched
            read: async (ctx) => ctx.page.evaluate(() => {
              if (document.readyState === 'loading') return null as unknown as string[];
              const items = Array.from(document.querySelectorAll('main .wp-block-post'), (e) => (e as HTMLElement).innerText);
              if (items.length) return items;
              return document.querySelector('main .wp-block-query-no-results') ? [] : (null as unknown as string[]);
            }),
            matches: (item) => terms.some((t) => String(item).toLowerCase().includes(t)),
          },
        },
      };
    }
    case 'site-editor': {
      const postType = u.searchParams.get('postType')!;
      const postId = u.searchParams.get('postId')!;
      const route = rest(`wp/v2/${postType === 'wp_template' ? 'templates' : 'template-parts'}/${postId}?context=edit&_fields=id,title`);
      const readBack = (ctx: ReadContext) => fetchInPage(ctx, route, headers);
      return {
        kind,
        summary: `REST ${postType === 'wp_template' ? 'templates' : 'template-parts'}/${postId}: 200 with that id; re-read: the editor's document bar shows its title`,
        terms: {
          ...base,
          semantic: {
            kind: 'read-back',
            read: readBack,
            success: (v) => (v as { status: number }).status === 200 && asObject((v as { body: unknown }).body)?.id === postId,
            negative: (v) => (v as { status: number }).status >= 400,
          },
          reread: {
            read: async (ctx) => ({ back: await readBack(ctx), bar: await editorText(ctx, ['.edit-site-document-actions__title', '.editor-document-bar__post-title', '.edit-site-document-actions']) }),
            holds: (v) => {
              const { back, bar } = v as { back: { status: number; body: unknown }; bar: string | null };
              const title = plainTitle(asObject(back.body)?.title?.rendered ?? asObject(back.body)?.title?.raw);
              return back.status === 200 && title !== '' && bar !== null && bar.includes(title);
            },
          },
        },
      };
    }
    case 'block-editor': {
      const post = Number(u.searchParams.get('post'));
      // post.php edits either type: the post, else the page of that id
      const readBack = async (ctx: ReadContext) => {
        const asPost = await fetchInPage(ctx, rest(`wp/v2/posts/${post}?context=edit&_fields=id,title`), headers);
        return asPost.status === 404 ? fetchInPage(ctx, rest(`wp/v2/pages/${post}?context=edit&_fields=id,title`), headers) : asPost;
      };
      return {
        kind,
        summary: `REST posts|pages/${post}: 200 with that id; re-read: the editor's title field holds its raw title`,
        terms: {
          ...base,
          semantic: {
            kind: 'read-back',
            read: readBack,
            success: (v) => (v as { status: number }).status === 200 && asObject((v as { body: unknown }).body)?.id === post,
            negative: (v) => (v as { status: number }).status >= 400,
          },
          reread: {
            read: async (ctx) => ({ back: await readBack(ctx), field: await editorText(ctx, ['.editor-post-title__input', 'h1.wp-block-post-title']) }),
            holds: (v) => {
              const { back, field } = v as { back: { status: number; body: unknown }; field: string | null };
              const title = textOf(asObject(back.body)?.title?.raw);
              return back.status === 200 && title !== '' && field === title;
            },
          },
        },
      };
    }
    case 'other':
      return {
        kind,
        summary: 'transport, and a non-empty <title> without body.error404 (the URL names nothing a read-back could check)',
        terms: {
          ...base,
          semantic: {
            kind: 'read-back',
            read: async (ctx) => ctx.page.evaluate(() => (document.readyState === 'loading' ? null : { title: document.title.trim(), error404: document.body?.classList.contains('error404') ?? false })),
            success: (v) => v !== null && (v as { title: string }).title !== '' && !(v as { error404: boolean }).error404,
            negative: (v) => v !== null && (v as { error404: boolean }).error404,
          },
        },
      };
  }
}
