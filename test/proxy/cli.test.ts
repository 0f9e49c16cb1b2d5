// shares the machine: it asserts exit codes, files and listeners of a service it starts on 127.0.0.1:8602, never a duration.
// make fault-proxy as a team uses it: a malformed spec is refused (exit 2) before anything starts;
// a good one runs in the background through core/service.ts (pid file, log, events file), on
// 127.0.0.1 alone, prints its URL, browser flags, CA and SPKI, applies its fault to an app of the
// test's own, and stops by its pid file, its held writes cancelled (never sent). Every layer, every
// transport fault the table names (read from it, not listed here), a compound pair and a user's own
// table, each by name from the command line and checked by a real request through the proxy.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';
import { processName, readPid, tcpListeners } from '../../core/service.ts';
import { validate } from '../../core/validate.ts';
import { run } from '../helpers/run.ts';
import { layers } from '../../core/layers.ts';
import type { ProxyEvent } from '../../core/contracts.ts';
import { planFor, transportFaultNames, transportTable } from '../../proxy/src/index.ts';
import { startFormApp, formSpec } from './form-app.ts';
import { answered, header, viaProxy } from './via-proxy.ts';

const PORT = 8602;
const bin = path.join(codeRoot, 'bin', 'rstackbench');

test('a malformed spec: exit 2 naming the field, and nothing started', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-fault-cli-'));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const state = path.join(dir, 'state');
  const bad = path.join(dir, 'bad.json');
  fs.writeFileSync(bad, JSON.stringify({ ...formSpec, write: { ...formSpec.write, path: '^/save(' } }));
  const env = { FAULT_PROXY_STATE: state };
  const refused = await run(bin, ['fault-proxy', '--spec', bad, '--layer', 'state', '--severity', '2', '--port', String(PORT)], { env });
  assert.equal(refused.exitCode, 2, refused.stderr);
  assert.match(refused.stderr, /bad\.json: field write\.path is not a valid regular expression/);
  const missing = await run(bin, ['fault-proxy', '--spec', bad.replace('bad', 'none'), '--layer', 'state', '--severity', '2'], { env });
  assert.equal(missing.exitCode, 2);
  assert.match(missing.stderr, /no such file/);
  assert.equal(fs.existsSync(path.join(state, 'proxy.pid')), false, 'no pid file');
  assert.deepEqual(tcpListeners().filter((l) => l.port === PORT), [], 'nothing listens');
});

/** A state folder for the service, the form app, and the form spec in a file; the service stopped and all removed after the test. */
async function service(t: { after: (fn: () => Promise<void>) => void }) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-fault-cli-'));
  const state = path.join(dir, 'state');
  const env = { FAULT_PROXY_STATE: state };
  const app = await startFormApp();
  t.after(async () => {
    await run(bin, ['fault-proxy-stop'], { env });
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const specFile = path.join(dir, 'spec.json');
  fs.writeFileSync(specFile, JSON.stringify(formSpec));
  return { dir, state, env, app, specFile };
}

test('a good spec: in the background on 127.0.0.1 alone, its fault on the app, its events logged; status; stopped by its pid file, a held write cancelled', async (t) => {
  const { state, env, app, specFile } = await service(t);
  const started = await run(bin, ['fault-proxy', '--spec', specFile, '--layer', 'state', '--severity', '3', '--seed', 'cli', '--port', String(PORT), '--https'], { env });
  assert.equal(started.exitCode, 0, started.stderr);
  assert.match(started.stdout, new RegExp(`^fault proxy: pid \\d+, http://127\\.0\\.0\\.1:${PORT} \\(test-form-title, layer state, severity 3, seed cli\\)`, 'm'));
  assert.match(started.stdout, new RegExp(`--proxy-server=http://127\\.0\\.0\\.1:${PORT} '--proxy-bypass-list=<-loopback>' --ignore-certificate-errors-spki-list=[A-Za-z0-9+/]+=*`));
  assert.match(started.stdout, new RegExp(`CA: ${state.replace(/[/.]/g, '\\$&')}/ca\\.pem {3}SPKI: `));
  const pid = readPid(path.join(state, 'proxy.pid'))!;
  assert.equal(processName(pid), 'node');
  assert.deepEqual(tcpListeners().filter((l) => l.port === PORT).map((l) => [l.address, l.pid]), [['127.0.0.1', pid]], 'on 127.0.0.1 alone, held by the service');
  assert.equal(fs.statSync(path.join(state, 'ca.key')).mode & 0o777, 0o600);

  const again = await run(bin, ['fault-proxy', '--spec', specFile, '--layer', 'state', '--severity', '3', '--port', String(PORT)], { env });
  assert.equal(again.exitCode, 2, 'one at a time');
  assert.match(again.stderr, /runs already/);
  const status = await run(bin, ['fault-proxy', '--status'], { env });
  assert.equal(status.exitCode, 0);

  const proxyUrl = `http://127.0.0.1:${PORT}`;
  const write = answered(await viaProxy(proxyUrl, `${app.origin}/save`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'kind=settings&title=held' }));
  assert.equal(write.status, 302);
  assert.equal(header(write, 'location'), '/form?saved=1');
  const stopped = await run(bin, ['fault-proxy-stop'], { env });
  assert.equal(stopped.exitCode, 0, stopped.stderr);
  assert.match(stopped.stdout, new RegExp(`fault proxy \\(pid ${pid}\\) stopped`));
  assert.equal(processName(pid), null, 'the process is gone');
  assert.equal(app.writes.length, 0, 'the held write was never sent');
  const events = fs.readFileSync(path.join(state, 'events.jsonl'), 'utf8').trim().split('\n').map((line, i) => validate<{ action: string; of?: number; id: number }>('proxy-event', JSON.parse(line), { file: 'events.jsonl', line: i + 1 }));
  assert.deepEqual(events.map((e) => e.action), ['answered', 'cancelled']);
  assert.equal(events[1]!.of, events[0]!.id);
  assert.match(fs.readFileSync(path.join(state, 'proxy.log'), 'utf8'), /listening on .*\n.*stopped; 1 held write cancelled, never sent/);
  const after = await run(bin, ['fault-proxy', '--status'], { env });
  assert.equal(after.exitCode, 1);
  assert.deepEqual(tcpListeners().filter((l) => l.port === PORT), []);
});

// ── every condition by name from the command line (issue 48 item 2) ───────────────────────────────

/** The injected page fault's settings in a document, or null when none was injected. */
const injected = (html: string) => {
  const m = /\}\)\((\{"selector".*?\})\);<\/script>/.exec(html);
  return m ? (JSON.parse(m[1]!) as { hideMs: number; decoys: number; swallow: number; popup?: { title: string } }) : null;
};
const documentGet = { headers: { 'Sec-Fetch-Dest': 'document', Accept: 'text/html' } };
const formWrite = { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'kind=settings&title=from-cli' };

test('every layer, every transport fault of the table and a compound pair, each by name from the command line, each checked by a real request through it', async (t) => {
  const { dir, state, env, app, specFile } = await service(t);
  const proxyUrl = `http://127.0.0.1:${PORT}`;
  const seed = 'cli-every';

  /** starts the proxy with these options (exit 0, its condition in its first line), runs `check`, stops it; returns this start's events */
  const under = async (options: string[], shown: RegExp, check: () => Promise<void>) => {
    app.writes.length = 0;
    app.requests.length = 0;
    const started = await run(bin, ['fault-proxy', '--spec', specFile, '--seed', seed, '--port', String(PORT), ...options], { env });
    assert.equal(started.exitCode, 0, `${options.join(' ')}: ${started.stderr}`);
    assert.match(started.stdout.split('\n')[0]!, shown);
    try { await check(); } finally {
      const stopped = await run(bin, ['fault-proxy-stop'], { env });
      assert.equal(stopped.exitCode, 0, stopped.stderr);
    }
    return fs.readFileSync(path.join(state, 'events.jsonl'), 'utf8').trim().split('\n').filter(Boolean)
      .map((line, i) => validate<ProxyEvent>('proxy-event', JSON.parse(line), { file: 'events.jsonl', line: i + 1 }));
  };

  /** the document and the write through the proxy, checked against what the plan of the same condition says */
  const layerChecks = (condition: Parameters<typeof planFor>[0]) => async () => {
    const plan = planFor(condition);
    const page = answered(await viaProxy(proxyUrl, `${app.origin}/form`, documentGet));
    assert.equal(page.status, 200);
    const fault = injected(page.body.toString('utf8'));
    if (plan.page) {
      assert.ok(fault, 'the page fault is in the document');
      assert.deepEqual([fault.hideMs, fault.decoys, fault.swallow], [plan.page.hideMs, plan.page.decoys, plan.page.swallow]);
    } else assert.equal(fault, null, 'no page fault');
    const write = answered(await viaProxy(proxyUrl, `${app.origin}/save`, formWrite));
    assert.equal(write.status, 302);
    assert.equal(header(write, 'location'), '/form?saved=1');
    // the proxy answers a write the plan holds (never at the app yet); any other reaches the app
    assert.equal(app.writes.length, plan.write ? 0 : 1, plan.write ? 'held by the proxy' : 'passed to the app');
  };

  for (const layer of layers) {
    const severity = layer === 'baseline' ? 0 : 2;
    await t.test(`--layer ${layer} --severity ${severity}`, async () => {
      const events = await under(['--layer', layer, '--severity', String(severity)], new RegExp(`layer ${layer}, severity ${severity}, seed ${seed}\\)$`),
        layerChecks({ spec: formSpec as never, layer, severity: severity as 0 | 2, seed }));
      assert.deepEqual(events.map((e) => e.id), events.map((_, i) => i + 1), 'this start\'s events alone, ids from 1');
    });
  }

  await t.test('a compound pair: --layer access --severity 1 --also state:2', async () => {
    await under(['--layer', 'access', '--severity', '1', '--also', 'state:2'], /layer access, severity 1 \+ state 2, seed/,
      layerChecks({ spec: formSpec as never, layer: 'access', severity: 1, also: { layer: 'state', severity: 2 }, seed }));
  });

  /** the request a transport fault matches, sent k times (its rule fires at the k-th since load); the k-th's outcome */
  const sendMatching = async (match: string, k: number) => {
    const one = () => (match === 'write' ? viaProxy(proxyUrl, `${app.origin}/save`, formWrite)
      : match === 'page' ? viaProxy(proxyUrl, `${app.origin}/form`, documentGet)
        : viaProxy(proxyUrl, `${app.origin}/app.js`));
    let outcome = await one();
    for (let n = 2; n <= k; n++) outcome = await one();
    return outcome;
  };

  const table = transportTable();
  for (const fault of transportFaultNames()) {
    await t.test(`--transport ${fault} (alone, on the baseline)`, async () => {
      const plan = planFor({ spec: formSpec as never, layer: 'baseline', severity: 0, seed, transport: { fault, severity: 1 } }).transport!;
      const events = await under(['--transport', fault], new RegExp(`layer baseline, severity 0, transport ${fault} 1, seed`), async () => {
        const outcome = await sendMatching(table.faults[fault]!.match, plan.fire.k);
        const effect = plan.effect;
        if (effect.kind === 'answer') {
          assert.equal(answered(outcome).status, effect.status);
          assert.match(answered(outcome).body.toString('utf8'), /The server could not handle the request/);
        } else if (effect.kind === 'delay') {
          assert.equal(answered(outcome).status, 200, 'passed on, late');
        } else if (effect.kind === 'lose') {
          assert.ok('closed' in outcome, 'the answer never came');
          assert.equal(app.writes.length, plan.fire.k, 'the app has the write');
        } else if (effect.kind === 'popup') {
          assert.equal(injected(answered(outcome).body.toString('utf8'))?.popup?.title, effect.title);
        }
      });
      assert.ok(events.some((e) => e.transport?.fault === fault && e.transport.n === plan.fire.k), `the fault fired, by its name: ${JSON.stringify(events.map((e) => e.transport))}`);
    });
  }

  await t.test('a layer and a transport fault at once, through make fault-proxy', async () => {
    const dry = await run('make', ['-n', '--no-print-directory', 'fault-proxy', `SPEC=${specFile}`, 'LAYER=perception', 'SEVERITY=1', 'ALSO=state:3', 'TRANSPORT=write-error', 'TRANSPORT_SEVERITY=2', 'TRANSPORT_TABLE=my.json'], { cwd: codeRoot });
    assert.equal(dry.exitCode, 0, dry.stderr);
    assert.match(dry.stdout, /fault-proxy --spec "[^"]+" --layer "perception" --severity "1" --also "state:3" --transport "write-error" --transport-severity "2" --transport-table "my\.json" --seed/);
    const alone = await run('make', ['-n', '--no-print-directory', 'fault-proxy', `SPEC=${specFile}`, 'TRANSPORT=popup'], { cwd: codeRoot });
    assert.match(alone.stdout, /fault-proxy --spec "[^"]+" +--transport "popup" +--seed/, 'no empty --layer or --severity');
    await under(['--layer', 'perception', '--severity', '1', '--transport', 'write-error', '--transport-severity', '2'], /layer perception, severity 1, transport write-error 2, seed/, async () => {
      const page = answered(await viaProxy(proxyUrl, `${app.origin}/form`, documentGet));
      assert.equal(injected(page.body.toString('utf8'))?.decoys, 1);
      const write = answered(await viaProxy(proxyUrl, `${app.origin}/save`, formWrite));
      assert.ok(write.status >= 400, `the first write failed: ${write.status}`);
      assert.equal(app.writes.length, 0);
    });
  });

  await t.test("a user's own table: its fault by its name; a name it lacks is refused listing its names", async () => {
    const own = path.join(dir, 'my-transport.json');
    fs.writeFileSync(own, JSON.stringify({
      schema: 'fault-transport/1',
      faults: {
        'flaky-save': {
          does: 'the write answered 503 once', match: 'write', why: 'a test of a table of ones own',
          severities: [1, 2, 3].map((k) => ({ fire: { rule: 'first', k }, effect: { answer: { statuses: [503], delay_ms: 0 } } })),
        },
      },
    }));
    const events = await under(['--transport', 'flaky-save', '--transport-table', own], /transport flaky-save 1 \(.*my-transport\.json\)/, async () => {
      const write = answered(await viaProxy(proxyUrl, `${app.origin}/save`, formWrite));
      assert.equal(write.status, 503);
      assert.equal(answered(await viaProxy(proxyUrl, `${app.origin}/save`, formWrite)).status, 302, 'the second passes to the app');
      assert.equal(app.writes.length, 1);
    });
    assert.equal(events.find((e) => e.write)?.transport?.fault, 'flaky-save');
    const notInOwn = await run(bin, ['fault-proxy', '--spec', specFile, '--transport', 'write-error', '--transport-table', own, '--port', String(PORT)], { env });
    assert.equal(notInOwn.exitCode, 2);
    assert.match(notInOwn.stderr, /--transport "write-error" is not a fault of .*my-transport\.json; its faults are flaky-save/);
    const notInShipped = await run(bin, ['fault-proxy', '--spec', specFile, '--transport', 'flaky-save', '--port', String(PORT)], { env });
    assert.equal(notInShipped.exitCode, 2);
    assert.match(notInShipped.stderr, new RegExp(`is not a fault of proxy/faults/transport\\.json; its faults are ${transportFaultNames().join(', ')}`));
    const badAlso = await run(bin, ['fault-proxy', '--spec', specFile, '--layer', 'access', '--severity', '1', '--also', 'state'], { env });
    assert.equal(badAlso.exitCode, 2);
    assert.match(badAlso.stderr, /--also takes LAYER:SEVERITY/);
    const badLayer = await run(bin, ['fault-proxy', '--spec', specFile, '--layer', 'acess', '--severity', '1'], { env });
    assert.match(badLayer.stderr, /--layer "acess" is not a layer of proxy\/faults\/layers\.json; its layers are baseline, access/);
    assert.deepEqual(tcpListeners().filter((l) => l.port === PORT), [], 'nothing started by a refused condition');
  });

  await t.test('--help documents them', async () => {
    const help = await run(bin, ['fault-proxy', '--help']);
    assert.equal(help.exitCode, 0);
    for (const flag of ['--layer', '--severity', '--also', '--transport', '--transport-severity', '--transport-table', 'TRANSPORT=']) assert.ok(help.stdout.includes(flag), `${flag} in --help`);
  });
});
