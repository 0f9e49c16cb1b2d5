// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// An outside agent's identity, and the frozen prereg that must register exactly it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree } from '../../helpers/tree.ts';
import { codeRoot } from '../../../core/paths.ts';
import { agentIdentity, registeredAgent, registeredIdentity } from '../../../pipeline/agents/identity.ts';
import { agentPlan } from '../../../pipeline/agents/arm.ts';

const fromTemplate = (command: string, files: string, hash: string) =>
  fs.readFileSync(path.join(codeRoot, 'prereg/templates/agent.md'), 'utf8')
    .replace(/<!--[\s\S]*?-->\n/, '')
    .replaceAll('{{NAME}}', 'mine').replaceAll('{{COMMAND}}', command).replaceAll('{{FILES}}', files).replaceAll('{{SHA256}}', hash);

/** A throw-away tree with the conditions, one agent file, its identity and the template filled in for it (not written). */
function mineInTree(t: { after: (fn: () => void) => void }) {
  const tree = makeTree({ tasks: true });
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  tree.write('agents/mine.py', 'print("{\\"done\\": true}")\n');
  const id = agentIdentity({ command: 'python3 agents/mine.py', files: ['agents/mine.py'] });
  return { tree, id, prereg: fromTemplate(id.command, id.files.join(' '), id.sha256!) };
}

test('the template, filled in, registers exactly that command, those files and their bytes', (t) => {
  const tree = makeTree();
  t.after(() => { tree.cleanup(); delete process.env.RSTACK_ROOT; });
  tree.write('agents/mine.py', 'print("{\\"done\\": true}")\n');
  tree.write('agents/prompt.txt', 'be careful\n');
  const id = agentIdentity({ command: 'python3 agents/mine.py', files: ['agents/prompt.txt', 'agents/mine.py'] });
  assert.deepEqual(id.files, ['agents/mine.py', 'agents/prompt.txt'], 'sorted, so the order given does not matter');
  assert.match(id.sha256!, /^[0-9a-f]{64}$/);
  assert.equal(id.name, 'mine');

  assert.throws(() => registeredAgent(id), /no frozen prereg\/agent-\*\.md registers/);
  tree.write('prereg/agent-mine.md', fromTemplate(id.command, id.files.join(' '), id.sha256!));
  assert.equal(registeredAgent(id).id, 'agent-mine');

  // one byte of the agent changes: it is another agent, which this prereg does not register
  tree.write('agents/prompt.txt', 'be careful!\n');
  const changed = agentIdentity({ command: 'python3 agents/mine.py', files: ['agents/mine.py', 'agents/prompt.txt'] });
  assert.notEqual(changed.sha256, id.sha256);
  assert.throws(() => registeredAgent(changed), /no frozen prereg/);
  // another command with the same files is not registered either
  assert.throws(() => registeredAgent({ ...id, command: 'python3 agents/mine.py --fast' }), /no frozen prereg/);
});

test('bad input names the flag', () => {
  assert.throws(() => agentIdentity({ command: '  ' }), /AGENT is empty/);
  assert.throws(() => agentIdentity({ command: 'x', files: ['no/such/file.py'] }), /AGENT_FILES: no\/such\/file.py is not a file/);
});

test('a prereg may register a slice: the conditions its run is on, in the order it names them', (t) => {
  const { tree, id, prereg } = mineInTree(t);
  const slice = (block: string) => prereg.replace('## What the agent gets', `- ${'Slice (condition ids)'}, drawn by a seed:\n\n  \`\`\`\n${block}\n  \`\`\`\n\n## What the agent gets`);
  const unitsOf = () => agentPlan({ identity: id, browser: 'chromium', smoke: false }).units.map((u) => u.condition_id);

  tree.write('prereg/agent-mine.md', prereg);
  assert.equal(unitsOf().length, 288, 'no slice: all 288');
  assert.equal(registeredIdentity(registeredAgent(id)).slice, null);

  tree.write('prereg/agent-mine.md', slice('  modal-state-03 cards-baseline-01\n  profile-action-07'));
  assert.deepEqual(unitsOf(), ['modal-state-03', 'cards-baseline-01', 'profile-action-07']);
  // a smoke run is never limited by a prereg
  assert.equal(agentPlan({ identity: id, browser: 'chromium', smoke: true }).units.length, 288);

  tree.write('prereg/agent-mine.md', slice('  cards-baseline-01 cards-nothing-99'));
  assert.throws(unitsOf, /not in data\/tasks\/layers\.jsonl: cards-nothing-99/);
  tree.write('prereg/agent-mine.md', slice('  cards-baseline-01 cards-baseline-01'));
  assert.throws(unitsOf, /names a condition twice/);
  tree.write('prereg/agent-mine.md', prereg.replace('## What the agent gets', '- Slice (condition ids): none given\n\n## What the agent gets'));
  assert.throws(unitsOf, /must be followed by a fenced block/);
});

test("a prereg's condition set is the block right below '- Conditions'; the template's prose line there names none, whatever block comes after it", (t) => {
  const { tree, id, prereg } = mineInTree(t);
  assert.match(prereg, /^- Conditions: .+/m, 'the template describes its conditions in prose');
  // a slice below that prose line (where a prereg's design usually puts it)
  const below = prereg.replace('## Analysis', '- Slice (condition ids):\n\n  ```\n  cards-baseline-01 modal-state-03\n  ```\n\n## Analysis');
  tree.write('prereg/agent-mine.md', below);
  const small = registeredIdentity(registeredAgent(id));
  assert.equal(small.conditions, 'layers');
  assert.deepEqual(small.slice, ['cards-baseline-01', 'modal-state-03']);
  assert.deepEqual(agentPlan({ identity: id, browser: 'chromium', smoke: false }).units.map((u) => u.condition_id), ['cards-baseline-01', 'modal-state-03']);
  assert.throws(() => registeredAgent(id, 'real-apps'), /no frozen prereg\/agent-\*\.md registers, on the real applications' conditions/);

  // a block right below the label says which set
  tree.write('prereg/agent-mine.md', below.replace(/^- Conditions: .+$/m, '- Conditions:\n\n  ```\n  real-apps\n  ```'));
  assert.equal(registeredIdentity(registeredAgent(id, 'real-apps')).conditions, 'real-apps');
  assert.throws(() => registeredAgent(id), /no frozen prereg/, 'registered on the real applications only');
  tree.write('prereg/agent-mine.md', below.replace(/^- Conditions: .+$/m, '- Conditions:\n\n  ```\n  everything\n  ```'));
  assert.throws(() => registeredAgent(id), /its - Conditions block says "everything", not layers or real-apps/);
});
