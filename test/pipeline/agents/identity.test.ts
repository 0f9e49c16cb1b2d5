// An outside agent's identity, and the frozen prereg that must register exactly it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { makeTree } from '../../helpers/tree.ts';
import { codeRoot } from '../../../core/paths.ts';
import { agentIdentity, registeredAgent } from '../../../pipeline/agents/identity.ts';

const fromTemplate = (command: string, files: string, hash: string) =>
  fs.readFileSync(path.join(codeRoot, 'prereg/templates/agent.md'), 'utf8')
    .replace(/<!--[\s\S]*?-->\n/, '')
    .replaceAll('{{NAME}}', 'mine').replaceAll('{{COMMAND}}', command).replaceAll('{{FILES}}', files).replaceAll('{{SHA256}}', hash);

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
