// make run-browsergym with an episode command that fails before BrowserGym opens its page (a missing
// module, the way a broken venv or a wrong --agent fails): each condition is an error row naming the
// crash, and the run goes on to the next and exits 0, as for a hang; under runs/, never the record.
// Needs no venv: the command is a Node script that exits 1 at its first import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { readJsonl } from '../../../core/jsonl.ts';
import type { LayersRow } from '../../../analysis/rows.ts';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { freeze } from '../../../pipeline/kernel/ledger.ts';

const missingModule = `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(import.meta.dirname, '..', 'agents', 'scripts', 'missing-module.mjs'))}`;

test('an episode that crashes before its page is open: an error row on each of 3 conditions, exit 0, no failed attempts', async (t) => {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  await freeze('test');
  const run = await runScript(tree, 'browsergym/run-browsergym.ts', ['--smoke', '--only', '^(cards|profile|modal)-baseline-01$', '--agent', missingModule, '--agent-name', 'missing-module']);
  assert.equal(run.exitCode, 0, run.stderr);
  const dir = tree.file('runs/run-browsergym-missing-module/data/excluded/layers/agent');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl'));
  assert.equal(files.length, 1, `one run file, no failed attempts: ${files.join(', ')}`);
  const rows = readJsonl<LayersRow>(path.join(dir, files[0]!), { schema: 'trace' });
  assert.deepEqual(rows.map((r) => r.condition_id).sort(), ['cards-baseline-01', 'modal-baseline-01', 'profile-baseline-01']);
  for (const r of rows) {
    assert.equal(r.claim, null);
    assert.match(r.error ?? '', /^crash: the episode's process exited with code 1 before its start page was open/);
    assert.equal(r.vts, false, 'the agent never began: the store is as seeded');
    assert.equal(r.false_completion, false);
  }
  assert.equal(fs.existsSync(tree.file('data/excluded')), false, 'nothing in the record');
});
