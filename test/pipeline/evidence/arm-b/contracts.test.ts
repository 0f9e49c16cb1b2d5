// The Arm B contracts arm (pipeline/evidence/arm-b/contracts.ts, verify-trial.ts,
// run-arm-b-contracts.ts) against the two WordPress sites make test starts: every contract is made
// from its case's URL alone; in both browsers, on the first editor draw (wordpress-editor.json, void:
// loaded before its labels were frozen) and on front-end URLs no registered sample holds, a
// navigation closes, a missing page fails at its transport, a template the theme lacks fails at its
// read-back, and an empty search fails at its result set. No browser here loads a URL of a
// registered sample (manifest.json, wordpress-editor-b.json): their URLs are only parsed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../../../core/paths.ts';
import { readManifest } from '../../../../pipeline/evidence/arm-b/manifest.ts';
import { contextCookies, readSession } from '../../../../pipeline/evidence/arm-b/session.ts';
import { caseContract, urlKind, plainTitle } from '../../../../pipeline/evidence/arm-b/contracts.ts';
import { verifyTrial } from '../../../../pipeline/evidence/arm-b/verify-trial.ts';
import { launchBrowser } from '../../../../pipeline/browser/launch.ts';
import { answers } from '../../../../fixtures/wordpress/site.ts';
import { validateContract } from '../../../../verifier/src/index.ts';
import { run } from '../../../helpers/run.ts';

const manifestFile = (name: string) => path.join(codeRoot, 'data/tasks/arm-b', name);
const firstDraw = readManifest(manifestFile('wordpress-editor.json'));
const frontOrigin = process.env.PRODUCTION_SITE_ORIGIN ?? readManifest(manifestFile('manifest.json')).origin;

test('each registered case gets the contract of its URL kind, read from the URL alone, and every contract is well formed', () => {
  const kinds = (file: string) => Object.fromEntries(readManifest(manifestFile(file)).cases.map((c) => [c.id, urlKind(c.url)]));
  // the prereg's table, case by case: what each URL asks the site to show
  assert.deepEqual(kinds('manifest.json'), {
    'nav-front-page': 'front-page', 'nav-hello-world': 'front-end', 'nav-sample-page': 'front-end', 'nav-transport-logs': 'front-end', 'nav-title-bar': 'front-end',
    'missing-post': 'front-end', 'missing-category': 'front-end', 'missing-author': 'front-end', 'search-quokka': 'search', 'search-heliotrope': 'search',
  });
  assert.deepEqual(kinds('wordpress-editor-b.json'), {
    'edit-template-404': 'site-editor', 'edit-template-search': 'site-editor', 'edit-part-footer': 'site-editor', 'edit-part-post-meta': 'site-editor',
    'edit-post-transport-logs': 'block-editor', 'edit-page-privacy': 'block-editor', 'missing-block-editor-screen': 'other', 'missing-parts-path': 'other',
    'missing-page-id': 'other', 'missing-template-tamarind': 'site-editor', 'missing-part-lanternfish': 'site-editor', 'other-theme-template': 'site-editor',
  });
  for (const file of ['manifest.json', 'wordpress-editor-b.json', 'wordpress-editor.json']) {
    const m = readManifest(manifestFile(file));
    for (const c of m.cases) {
      const { terms } = caseContract(m, c);
      validateContract({ ...terms, action: () => undefined });
      assert.equal(terms.navigates, true);
      assert.equal(terms.ambiguity, 'fail');
      // the request is the case's URL and nothing else: a longer URL or another query does not match
      const url = (terms.request as { url: RegExp }).url;
      assert.ok(url.test(c.url) && !url.test(`${c.url}x`) && !url.test(`${c.url}${c.url.includes('?') ? '&' : '?'}x=1`), c.id);
    }
  }
  // a case's contract never depends on its predicate or kind: the same URL, the same contract
  const c = firstDraw.cases[0]!;
  assert.equal(caseContract(firstDraw, { ...c, kind: 'http-404', predicate: { status: { equals: 404 } } } as typeof c).summary, caseContract(firstDraw, c).summary);
});

test('URL kinds at their edges, and WordPress titles made plain', () => {
  const o = 'http://127.0.0.1:8471';
  assert.equal(urlKind(`${o}/`), 'front-page');
  assert.equal(urlKind(`${o}/?s=`), 'other', 'an empty search names no terms');
  assert.equal(urlKind(`${o}/?s=a&cat=2`), 'other');
  assert.equal(urlKind(`${o}/?p=12`), 'other');
  assert.equal(urlKind(`${o}/wp-admin/site-editor.php?postType=wp_template`), 'other', 'a list names no template');
  assert.equal(urlKind(`${o}/wp-admin/site-editor.php?postType=wp_navigation&postId=a//b`), 'other');
  assert.equal(urlKind(`${o}/wp-admin/post.php?post=7`), 'other', 'no action=edit');
  assert.equal(urlKind(`${o}/wp-json/wp/v2/posts`), 'other');
  assert.equal(plainTitle('Tom &amp; Jerry&#8217;s <em>notes</em>'), 'Tom & Jerry’s notes');
});

const editorUp = await answers(firstDraw.origin, 3000);
const frontUp = await answers(frontOrigin, 3000);

for (const browserName of ['firefox', 'chromium'] as const) {
  test(`in ${browserName}: navigations close; a 404 fails at transport, a missing template at its read-back, an empty search at its result set; the guard refuses what is not a GET to the origin`, { timeout: 240_000 }, async () => {
    assert.ok(editorUp && frontUp, `make test starts both sites; run alone, start them first (make production-site production-editor): ${firstDraw.origin} ${editorUp}, ${frontOrigin} ${frontUp}`);
    const session = readSession(firstDraw)!;
    const cookies = contextCookies(session, firstDraw.origin);
    const editor = (id: string) => ({ m: firstDraw, c: firstDraw.cases.find((c) => c.id === id)!, cookies, headers: session.headers });
    const front = (id: string, url: string) => ({ m: { origin: new URL(url).origin }, c: { id, url }, cookies: undefined, headers: {} });
    // [trial, the state it ends in, the state it failed from]; the browsers share the kinds out between
    // them (the command's test below adds a block-editor close and a missing part in Chromium)
    const all = {
      firefox: [
        [editor('edit-part-header'), 'closed', null],
        [editor('missing-part-marzipan'), 'failed', 'transport-resolved'],
        [front('front-page', `${firstDraw.origin}/`), 'closed', null],
        [front('no-post', `${frontOrigin}/notes-nobody-wrote/`), 'failed', 'correlated'],
        [front('search-empty', `${frontOrigin}/?s=zzqxv+wombat`), 'failed', 'transport-resolved'],
      ],
      chromium: [
        [editor('edit-template-single'), 'closed', null],
        [editor('missing-post-id'), 'failed', 'correlated'],
        [front('post', `${frontOrigin}/field-notes-on-evidence-layers/`), 'closed', null],
        [front('search-finds', `${frontOrigin}/?s=evidence`), 'closed', null],
        [front('search-empty', `${frontOrigin}/?s=zzqxv+wombat`), 'failed', 'transport-resolved'],
      ],
    } as const;
    const cases = all[browserName];
    const { browser } = await launchBrowser(browserName, null);
    try {
      for (const [{ m, c, cookies: k, headers }, state, from] of cases) {
        const contract = caseContract(m, c, headers);
        const t = await verifyTrial(browser, { url: c.url, origin: m.origin, contract, cookies: k });
        const last = t.record.transitions.at(-1)!;
        const told = `${c.id} (${contract.kind}): ${t.record.state} from ${last.from}: ${t.record.reason ?? ''}`;
        assert.equal(t.error, null, told);
        assert.equal(t.record.state, state, told);
        if (from) assert.equal(last.from, from, told);
        else assert.deepEqual(t.record.transitions.map((x) => x.to), ['dispatched', 'ui-observed', 'correlated', 'transport-resolved', 'semantic-checked', 're-read', 'closed'], told);
        // the guard: a request that is not a GET to the trial's origin (the editor's own OPTIONS and POST
        // calls, an image on another host) is refused before it is sent, and never answered
        const requests = t.events.filter((e) => e.source === 'network' && e.type === 'request');
        assert.ok(requests.some((e) => e.url === c.url), told);
        const refusedUrls = new Set(t.events.filter((e) => e.type === 'refused').map((e) => `${e.detail?.method} ${e.url}`));
        const answered = new Set(t.events.filter((e) => e.type === 'response').map((e) => e.request_id));
        for (const e of requests.filter((r) => !(new URL(r.url!).origin === m.origin && r.detail?.method === 'GET'))) {
          assert.ok(refusedUrls.has(`${e.detail?.method} ${e.url}`) && !answered.has(e.request_id), `${told}: ${e.detail?.method} ${e.url} was refused and never answered`);
        }
      }
    } finally {
      await browser.close();
    }
  });
}

test('the command: a smoke run on the first editor draw writes its rows to data/excluded/ with their records; a registered run without its prereg is refused before any request', { timeout: 240_000 }, async () => {
  assert.ok(editorUp, 'make test starts the editor site; run alone, start it first (make production-editor)');
  const tree = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-contracts-'));
  try {
    for (const f of ['data/tasks/arm-b/wordpress-editor.json', 'data/labels/arm-b/wordpress-editor.labels.json']) fs.cpSync(path.join(codeRoot, f), path.join(tree, f), { recursive: true });
    fs.mkdirSync(path.join(tree, 'prereg'));
    const bin = path.join(codeRoot, 'bin', 'rstackbench');
    const env = { RSTACK_ROOT: tree, ARM_B_SESSION: readSession(firstDraw)!.file };
    assert.equal((await run(bin, ['freeze', '--reason', 'test'], { cwd: codeRoot, env })).exitCode, 0);
    const manifest = path.join(tree, 'data/tasks/arm-b/wordpress-editor.json');
    const refused = await run(bin, ['run-arm-b-contracts', '--manifest', manifest], { cwd: codeRoot, env });
    assert.equal(refused.exitCode, 2, refused.stderr);
    assert.match(refused.stderr, /needs its prereg frozen first/);
    assert.equal(fs.existsSync(path.join(tree, 'data/raw')), false, 'nothing written');

    const smoke = await run(bin, ['run-arm-b-contracts', '--browser', 'chromium', '--manifest', manifest, '--smoke', '--cases', 'edit-page-sample,missing-post-id,missing-part-quokka', '--reps', '1'], { cwd: codeRoot, env });
    assert.equal(smoke.exitCode, 0, smoke.stderr);
    const dir = path.join(tree, 'data/excluded/evidence/arm-b-contracts');
    const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
    assert.equal(files.length, 1, files.join(', '));
    const rows = fs.readFileSync(path.join(dir, files[0]!), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.deepEqual(rows.map((r) => [r.case_id, r.contract.kind, r.truth, r.evidence_record.state, r.verdicts['verifier-contract'].accept]), [
      ['edit-page-sample', 'block-editor', 'success', 'closed', true],
      ['missing-post-id', 'other', 'failure', 'failed', false],
      ['missing-part-quokka', 'site-editor', 'failure', 'failed', false],
    ]);
    for (const r of rows) {
      assert.equal(r.smoke, true);
      assert.equal(r.verdicts['verifier-contract'].latency_ms, r.evidence_record.transitions.at(-1).t_ms, 'the latency is the record’s last move');
    }
    assert.match(smoke.stdout, /false accepts 0\/2, false rejects 0\/1/);
    const secrets = [...Object.values(readSession(firstDraw)!.headers), ...readSession(firstDraw)!.cookies.map((c) => c.value)];
    assert.ok(secrets.length > 0 && secrets.every((s) => !JSON.stringify(rows).includes(s) && !smoke.stdout.includes(s) && !smoke.stderr.includes(s)), 'no session secret in a row or on the screen');
  } finally {
    fs.rmSync(tree, { recursive: true, force: true });
  }
});
