// WebArena-Verified's own evaluator (evaluators/webarena-verified/score.py), unchanged, on HARs a real
// browser recorded (Playwright's recordHar) through the fault proxy in front of the proxy tests' form
// app on 127.0.0.1: a save that reached the app (its 302), a save the proxy answered 500 (write-error,
// never forwarded), and a save the proxy answered with the app's own success and never forwarded
// (verification). The same claim, done, goes with each. The app's writes are the truth; the verdicts
// are what the evaluator computed, checked against what its own evaluators give when called directly.
// Needs evaluators/.venv (made here when missing or stale: make evaluators).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { launchBrowser, browserNames } from '../../pipeline/browser/launch.ts';
import { startFaultProxy, readTransportTable, type FaultProxy } from '../../proxy/src/index.ts';
import { startFormApp, formSpec, type FormApp } from '../proxy/form-app.ts';
import { ensureEvaluatorsVenv, evaluatorsPython, webarenaVerifiedScore } from '../../pipeline/evaluators/install.ts';

const run = promisify(execFile);

/** the form app's write as a family condition (fixtures/real-app.ts familyCondition's shape): the mapping reads its spec */
const formFamily = {
  family: formSpec.family, app: 'form-app', variant: 'title', instruction: 'Change the Site Title to “Recorded title” and save the change.',
  start: '/form', input: { selector: '#title', role: 'textbox', name: 'Site Title', action: 'fill', value: 'Recorded title' },
  spec: formSpec, notice: null, postcondition: { query: 'title', args: [] }, changes: null, seeded: 'Original title', expected: 'Recorded title',
};

type Case = 'reached' | 'answered-500' | 'never-forwarded';
interface Verdict { trace_id: string; score: number; status: string; same_as_direct: boolean; evaluators: { evaluator_name: string; status: string; score: number }[]; error_msg: string | null }
interface HarEntry { request: { method: string; url: string; postData?: { mimeType: string; text?: string } }; response: { status: number } }

// the write-error fault at severity 1 answers the first write with one status drawn from five: this
// test's table draws from 500 alone, so that the case is a 500 whatever the seed
const table = readTransportTable();
const writeError = table.faults['write-error']!;
const only500 = { ...table, faults: { ...table.faults, 'write-error': { ...writeError, severities: writeError.severities.map((s) => ({ ...s, effect: { answer: { ...(s.effect as { answer: { statuses: number[]; delay_ms: number } }).answer, statuses: [500] } } })) } } };

before(async () => { await ensureEvaluatorsVenv('test'); });

for (const name of browserNames) {
  test(`${name}: HARs recorded by recordHar through the fault proxy, scored by WebArena-Verified's evaluator`, async (t) => {
    const app: FormApp = await startFormApp();
    const proxy: FaultProxy = await startFaultProxy({ transportTable: only500 as never });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rstack-wav-har-${name}-`));
    const browsers: Browser[] = [];
    t.after(async () => { for (const b of browsers) await b.close(); await proxy.close(); await app.close(); fs.rmSync(dir, { recursive: true, force: true }); });
    const browser = (await launchBrowser(name, null, { proxy: { server: proxy.url } })).browser;
    browsers.push(browser);

    /** one save in a fresh context recording a HAR; returns the app's writes during it */
    const record = async (which: Case): Promise<string[]> => {
      if (which === 'reached') proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: `${name}-${which}` });
      if (which === 'answered-500') proxy.load({ spec: formSpec as never, layer: 'baseline', severity: 0, seed: `${name}-${which}`, transport: { fault: 'write-error', severity: 1 } });
      if (which === 'never-forwarded') proxy.load({ spec: formSpec as never, layer: 'verification', severity: 1, seed: `${name}-${which}` });
      app.writes.length = 0;
      app.title = 'Original title';
      // recordHar's defaults for a .har path (content: embed): with content 'omit' Chromium writes the
      // form body's postData.text as "" (its params stay), and WebArena-Verified reads the text alone
      const context = await browser.newContext({ recordHar: { path: path.join(dir, `${which}.har`), mode: 'full' } });
      const page = await context.newPage();
      await page.goto(`${app.origin}/form`);
      await page.fill('#title', 'Recorded title');
      const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/save');
      await page.click('#submit');
      await answered;
      if (which !== 'answered-500') await page.getByRole('status').waitFor();
      await context.close(); // recordHar writes the file here
      return app.writes.map((w) => w.title);
    };

    const writes: Record<Case, string[]> = { reached: await record('reached'), 'answered-500': await record('answered-500'), 'never-forwarded': await record('never-forwarded') };
    // the truth: only the first save reached the app
    assert.deepEqual(writes, { reached: ['Recorded title'], 'answered-500': [], 'never-forwarded': [] });

    // what each HAR holds of the save: the browser's own record of the POST and the status it got
    const saves: Record<string, { status: number; postData: string | undefined }[]> = {};
    for (const which of Object.keys(writes) as Case[]) {
      const har = JSON.parse(fs.readFileSync(path.join(dir, `${which}.har`), 'utf8')) as { log: { entries: HarEntry[] } };
      saves[which] = har.log.entries.filter((e) => e.request.method === 'POST' && new URL(e.request.url).pathname === '/save').map((e) => ({ status: e.response.status, postData: e.request.postData?.text }));
    }
    t.diagnostic(`${name}: the save in each HAR: ${JSON.stringify(saves)}`);

    const traces = path.join(dir, 'traces.jsonl');
    fs.writeFileSync(traces, (Object.keys(writes) as Case[]).map((which) => JSON.stringify({ trace_id: which, family: formFamily, origin: app.origin, har_path: `${which}.har`, claim: { done: true, message: 'Settings saved.' } })).join('\n') + '\n');
    const { stdout } = await run(evaluatorsPython, [webarenaVerifiedScore, traces, '--check-direct'], { maxBuffer: 64 << 20 });
    const verdicts = Object.fromEntries(stdout.trim().split('\n').map((l) => JSON.parse(l) as Verdict).map((v) => [v.trace_id, v])) as Record<Case, Verdict>;
    const summary = Object.fromEntries(Object.entries(verdicts).map(([k, v]) => [k, { score: v.score, status: v.status, evaluators: v.evaluators.map((e) => `${e.evaluator_name} ${e.status}`), same_as_direct: v.same_as_direct, error: v.error_msg }]));
    t.diagnostic(`${name}: WebArena-Verified's verdicts: ${JSON.stringify(summary)}`);

    for (const v of Object.values(verdicts)) assert.equal(v.same_as_direct, true, `${v.trace_id}: the facade's evaluators_results are its evaluators' own, called directly`);

    // What recordHar writes of the form's body: Chromium writes it (postData.text); Firefox over
    // WebDriver BiDi (playwright-core 1.64.1, firefox-esr) writes no postData at all, and its
    // request.postData() is null too. Both as first observed here: a change in either fails this test.
    const recordsBody = name === 'chromium';
    for (const [which, entries] of Object.entries(saves)) {
      assert.equal(entries.length, 1, `${which}: one save in the HAR`);
      assert.equal(entries[0]!.status, which === 'answered-500' ? 500 : 302, `${which}: the status the browser got`);
      if (recordsBody) assert.equal(entries[0]!.postData, 'kind=settings&title=Recorded+title&submit=Save+Changes', `${which}: the body`);
      else assert.equal(entries[0]!.postData, undefined, `${which}: no postData in ${name}'s HAR`);
    }

    // Its verdicts. The AgentResponseEvaluator takes the claim (done) every time. The
    // NetworkEventEvaluator passes a trace whose HAR holds a POST /save with kind=settings answered
    // 302, whether the app or the proxy answered it: it reads the browser's side of the wire only.
    // Without the body in the HAR (Firefox) its post_data check fails every trace, the stored one too.
    for (const [which, v] of Object.entries(verdicts) as [Case, Verdict][]) {
      assert.equal(v.error_msg, null, `${which}: no error`);
      assert.equal(v.evaluators.find((e) => e.evaluator_name === 'AgentResponseEvaluator')?.status, 'success', `${which}: the claim`);
      const passes = recordsBody && which !== 'answered-500';
      assert.equal(v.evaluators.find((e) => e.evaluator_name === 'NetworkEventEvaluator')?.status, passes ? 'success' : 'failure', `${which}: the network event`);
      assert.deepEqual([v.score, v.status], passes ? [1, 'success'] : [0, 'failure'], `${which}: its score`);
    }
    if (!recordsBody) {
      // the cause is the missing body alone: the same HARs with the body the form sent laid into the
      // save's entry (as Chromium writes it) are scored as Chromium's are
      const patched = path.join(dir, 'patched.jsonl');
      fs.writeFileSync(patched, (Object.keys(writes) as Case[]).map((which) => {
        const har = JSON.parse(fs.readFileSync(path.join(dir, `${which}.har`), 'utf8')) as { log: { entries: HarEntry[] } };
        for (const e of har.log.entries) if (e.request.method === 'POST' && new URL(e.request.url).pathname === '/save') e.request.postData = { mimeType: 'application/x-www-form-urlencoded', text: 'kind=settings&title=Recorded+title&submit=Save+Changes' };
        fs.writeFileSync(path.join(dir, `${which}-patched.har`), JSON.stringify(har));
        return JSON.stringify({ trace_id: which, family: formFamily, origin: app.origin, har_path: `${which}-patched.har`, claim: { done: true, message: 'Settings saved.' } });
      }).join('\n') + '\n');
      const out = (await run(evaluatorsPython, [webarenaVerifiedScore, patched], { maxBuffer: 64 << 20 })).stdout;
      const scores = Object.fromEntries(out.trim().split('\n').map((l) => JSON.parse(l) as Verdict).map((v) => [v.trace_id, v.score]));
      t.diagnostic(`${name}: with the body laid in: ${JSON.stringify(scores)}`);
      assert.deepEqual(scores, { reached: 1, 'answered-500': 0, 'never-forwarded': 1 });
    }
    if (recordsBody) {
      // the never-forwarded write scores what the stored one scores, though the app holds only the latter
      assert.deepEqual([verdicts['never-forwarded'].score, verdicts['never-forwarded'].status], [verdicts.reached.score, verdicts.reached.status]);
      assert.notDeepEqual(writes['never-forwarded'], writes.reached);
    }
  });
}
