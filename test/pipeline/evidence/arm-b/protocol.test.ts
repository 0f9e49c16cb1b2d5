// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
import { test, beforeEach, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { protocolChain, readArmBProtocols, registeredPolicies } from '../../../../pipeline/evidence/arm-b/protocol.ts';

let tmp = '';
const write = (name: string, front: Record<string, string>, policies = ['domcontentloaded']) =>
  fs.writeFileSync(
    path.join(tmp, 'prereg', name),
    `---\n${Object.entries(front).map(([k, v]) => `${k}: ${v}`).join('\n')}\n---\n\n# x\n\n## Registered policies\n\n${policies.map((p) => `- \`${p}\` — words`).join('\n')}\n\n## Outcomes\n\n- \`not-a-policy\` is outside the section\n`,
  );
const v1 = { id: 'evidence-arm-b', study: 'evidence', arm: 'arm-b', version: '1', supersedes: 'null' };

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'armb-protocol-'));
  fs.mkdirSync(path.join(tmp, 'prereg'));
  process.env.RSTACK_ROOT = tmp;
});
afterEach(() => { delete process.env.RSTACK_ROOT; fs.rmSync(tmp, { recursive: true, force: true }); });

test('v1 alone is in force; an amendment that names it supersedes it', () => {
  write('evidence-arm-b.md', v1, ['domcontentloaded', 'network-completion']);
  write('layers-main.md', { id: 'layers-main', study: 'layers', arm: 'main', version: '1', supersedes: 'null' });
  let chain = protocolChain();
  assert.equal(chain.current.id, 'evidence-arm-b');
  assert.deepEqual(chain.current.policies, ['domcontentloaded', 'network-completion']);
  write('evidence-arm-b-v1.1.md', { id: 'evidence-arm-b.v1.1', study: 'evidence', arm: 'arm-b', version: '1.1', supersedes: 'evidence-arm-b' }, ['title-settled']);
  write('evidence-arm-b-v1.2.md', { id: 'evidence-arm-b.v1.2', study: 'evidence', arm: 'arm-b', version: '1.2', supersedes: 'evidence-arm-b.v1.1' }, ['body-stable']);
  chain = protocolChain();
  assert.deepEqual(chain.chain.map((p) => p.id), ['evidence-arm-b', 'evidence-arm-b.v1.1', 'evidence-arm-b.v1.2']);
  assert.equal(chain.current.file, 'prereg/evidence-arm-b-v1.2.md');
});

test('a fork, a dangling amendment, or no protocol at all is refused', () => {
  assert.throws(() => protocolChain(), /no preregistration for study evidence, arm arm-b/);
  write('evidence-arm-b.md', v1);
  write('a.md', { id: 'a', study: 'evidence', arm: 'arm-b', version: '1.1', supersedes: 'evidence-arm-b' });
  write('b.md', { id: 'b', study: 'evidence', arm: 'arm-b', version: '1.1', supersedes: 'evidence-arm-b' });
  assert.throws(() => protocolChain(), /forks.*a, b/);
  fs.rmSync(path.join(tmp, 'prereg', 'b.md'));
  write('c.md', { id: 'c', study: 'evidence', arm: 'arm-b', version: '2', supersedes: 'nowhere' });
  assert.throws(() => protocolChain(), /c\.md supersedes nowhere/);
});

test('the registered policies come from their section only, and must be known', () => {
  assert.deepEqual(registeredPolicies('## Registered policies\n\n- `body-stable` — x\n* `domcontentloaded`\n\n## Next\n- `x`\n', 'f.md'), ['body-stable', 'domcontentloaded']);
  assert.throws(() => registeredPolicies('## Registered policies\n- `made-up`\n', 'f.md'), /unknown policy made-up/);
  assert.throws(() => registeredPolicies('## Policies\n- `domcontentloaded`\n', 'f.md'), /no "## Registered policies"/);
  write('evidence-arm-b.md', { ...v1, version: 'one' });
  assert.throws(() => readArmBProtocols(), /version/);
});

test('a reporting amendment (amends:) lists promises and is never the protocol in force', () => {
  write('evidence-arm-b.md', v1, ['domcontentloaded']);
  fs.writeFileSync(path.join(tmp, 'prereg', 'evidence-arm-b-promises.md'),
    '---\nid: evidence-arm-b-promises\nstudy: evidence\narm: arm-b\nversion: 1.0.1\namends: evidence-arm-b\npromises:\n  - evidence_production\n---\n\n# What Arm B promised\n');
  const chain = protocolChain();
  assert.equal(chain.current.id, 'evidence-arm-b');
  assert.deepEqual(readArmBProtocols().map((p) => p.id), ['evidence-arm-b']);
});

test('an amendment that names its samples is in force for those samples only', () => {
  write('evidence-arm-b.md', v1, ['domcontentloaded']);
  write('evidence-arm-b-v1.1.md', { id: 'evidence-arm-b.v1.1', study: 'evidence', arm: 'arm-b', version: '1.1', supersedes: 'evidence-arm-b', samples: '[editor]' }, ['title-settled']);
  assert.deepEqual(protocolChain(readArmBProtocols(), 'editor').chain.map((p) => p.id), ['evidence-arm-b', 'evidence-arm-b.v1.1']);
  assert.equal(protocolChain(readArmBProtocols(), 'wordpress-local').current.id, 'evidence-arm-b');
  assert.equal(protocolChain().current.id, 'evidence-arm-b', 'without a sample only the protocols for every sample count');
  // an amendment for every sample after a sample's own amendment continues that sample's chain
  write('evidence-arm-b-v1.2.md', { id: 'evidence-arm-b.v1.2', study: 'evidence', arm: 'arm-b', version: '1.2', supersedes: 'evidence-arm-b.v1.1', samples: '[editor]' }, ['body-stable']);
  assert.equal(protocolChain(readArmBProtocols(), 'editor').current.id, 'evidence-arm-b.v1.2');
  assert.equal(protocolChain(readArmBProtocols(), 'wordpress-local').current.id, 'evidence-arm-b');
});
