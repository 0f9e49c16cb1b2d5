// The verifier proven by replay (issue 24, item 3): over every recorded timeline of the controlled
// arm and Arm A, the verifier's contract for the controlled app (fixtures/evidence/contract.ts),
// replayed by the library (verifier/src/replay.ts), against the verdict the committed-state policy
// (transport-committed) recorded on the same row. A row agrees when the record closed exactly
// where the policy accepted. Computed in TypeScript only: the replay is the library's code, which
// SQL cannot run; the other side of each comparison is the recorded verdict, not a recomputation.
import { replay } from '../verifier/src/replay.ts';
import { targetOf } from '../verifier/src/events.ts';
import { recordedContract } from '../fixtures/evidence/contract.ts';
import { controlledMatrix } from '../fixtures/evidence/tasks.ts';
import type { EvidenceRow, Located } from './rows.ts';
import type { TableRow } from './tables.ts';

/** The policy the contract is compared with: correlated transport plus the committed application state. */
export const committedStatePolicy = 'transport-committed';
const arms = ['controlled', 'arm-a'];

export function verifierReplay(rows: Located<EvidenceRow>[]): TableRow[] {
  const groups = new Map<string, TableRow & Record<string, number | string>>();
  for (const { row } of rows) {
    if (!arms.includes(row.arm)) continue;
    const id = JSON.stringify([row.arm, row.browser.name]);
    let g = groups.get(id);
    if (!g) {
      g = { arm: row.arm, browser: row.browser.name, rows: 0, policy_rows: 0, closed_n: 0, failed_n: 0, ambiguous_n: 0, policy_accept_n: 0, agree_n: 0, disagree_n: 0, closed_latency_equal_n: 0 };
      groups.set(id, g);
    }
    const n = (k: string) => { g![k] = (g![k] as number) + 1; };
    n('rows');
    const target = targetOf(row.events);
    const record = target
      ? replay(recordedContract(target, controlledMatrix.horizon_ms), row.events)
      : null;
    const closed = record?.state === 'closed';
    if (record) n(`${record.state === 'closed' ? 'closed' : record.state === 'ambiguous' ? 'ambiguous' : 'failed'}_n`);
    else n('failed_n'); // no declared target: nothing to correlate, never a success
    const verdict = row.verdicts[committedStatePolicy];
    if (!verdict) continue;
    n('policy_rows');
    if (verdict.accept) n('policy_accept_n');
    n(closed === verdict.accept ? 'agree_n' : 'disagree_n');
    if (closed && verdict.accept && record!.transitions.at(-1)!.t_ms === verdict.latency_ms) n('closed_latency_equal_n');
  }
  const rank = (arm: unknown) => arms.indexOf(String(arm));
  const cmp = (a: unknown, b: unknown) => (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0);
  return [...groups.values()].sort((a, b) => rank(a.arm) - rank(b.arm) || cmp(a.browser, b.browser));
}
