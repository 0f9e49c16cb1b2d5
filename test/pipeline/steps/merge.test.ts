// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// make merge orders a merged run by the arm's own plan function. Checked against the registered
// single-machine runs in data/raw/: for every arm and browser, the plan the merge builds names the run
// as its run target does and lists the units in the order that run wrote its rows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { planFor } from '../../../pipeline/steps/merge.ts';
import { runPrefixOf } from '../../../pipeline/kernel/run.ts';
import { readJsonl } from '../../../core/jsonl.ts';
import { paths } from '../../../core/paths.ts';
import type { TraceRow } from '../../../core/contracts.ts';

delete process.env.RSTACK_ROOT; // the repository's own registered runs

const manifestFiles = () => { const d = path.join(paths.tasks(), 'arm-b'); return fs.readdirSync(d).filter((f) => f.endsWith('.json')).map((f) => path.join(d, f)); };

const arms = [['layers', 'main'], ['layers', 'horizon'], ['layers', 'verified'], ['layers', 'claims'], ['evidence', 'controlled'], ['evidence', 'arm-a'], ['evidence', 'arm-b']] as const;

test('the merge plan of every arm has the name and the unit order of its registered single-machine runs', (t) => {
  let checked = 0;
  for (const [study, arm] of arms) {
    const dir = paths.rawArm(study, arm);
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.jsonl') && !/-shard\d+of\d+/.test(f)) : [];
    for (const f of files) {
      const rows = readJsonl<TraceRow>(path.join(dir, f), { schema: 'trace' });
      // an Arm B run is one sample's: its manifest is the one whose id starts the condition ids
      const sample = rows[0]!.condition_id.split('/')[0];
      const manifest = arm === 'arm-b' ? manifestFiles().find((m) => JSON.parse(fs.readFileSync(m, 'utf8')).id === sample) : undefined;
      const { plan } = planFor(arm, rows[0]!.browser.name, { manifest });
      assert.ok(f.startsWith(runPrefixOf(plan)), `${f} is named by the plan's prefix ${runPrefixOf(plan)}`);
      // the verified and claims arms were registered at two workers, whose rows come in the order they end: the same units, not the same order
      const inOrder = !(arm === 'verified' || arm === 'claims');
      const keys = (ks: string[]) => (inOrder ? ks : [...ks].sort());
      assert.deepEqual(keys(rows.map((r) => plan.rowKey(r))), keys(plan.units.map((u) => plan.unitKey(u))), `${study}/${arm}/${f}: ${inOrder ? 'rows in the plan\'s order' : 'the plan\'s units'}`);
      checked++;
    }
  }
  if (!checked) t.skip('no registered run in data/raw/ to compare with');
});
