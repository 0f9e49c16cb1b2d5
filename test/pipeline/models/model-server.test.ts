// make model-server / model-server-stop as a user runs them, in a throw-away tree: the server starts
// detached (core/service.ts), the launcher returns once the model is loaded, the endpoint answers on
// 127.0.0.1, and stop ends only that process; stop when nothing runs says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { makeTree, runScript } from '../../helpers/tree.ts';
import { installTestModel, testModel } from '../../helpers/model.ts';
import { processName } from '../../../core/service.ts';

// a zombie (ended, not yet reaped by whoever adopted it) is gone
const alive = (pid: number) => processName(pid) !== null;

test('model-server starts the model detached and returns when it is ready; stop ends that process only; stop again finds nothing', { timeout: 10 * 60_000 }, async (t) => {
  await installTestModel();
  const tree = makeTree();
  t.after(async () => { await runScript(tree, 'models/model-server.ts', ['--stop']); tree.cleanup(); });
  const started = await runScript(tree, 'models/model-server.ts', ['--port', '0']);
  assert.equal(started.exitCode, 0, started.stderr);
  const base = /PILOT_BASE_URL=(http:\/\/127\.0\.0\.1:\d+\/v1) PILOT_MODEL=(\S+)/.exec(started.stdout);
  assert.ok(base, started.stdout);
  assert.equal(base[2], testModel().name);
  const pid = Number(/pid (\d+)/.exec(started.stdout)![1]);
  assert.ok(alive(pid), 'the server outlives the command that started it');
  const models = (await (await fetch(`${base[1]}/models`)).json()) as { data: { id: string }[] };
  assert.deepEqual(models.data.map((m) => m.id), [testModel().name]);
  assert.match(fs.readFileSync(tree.file(`.state/model-server/${testModel().name}.log`), 'utf8'), /ready/, 'the server writes its own log');
  const stopped = await runScript(tree, 'models/model-server.ts', ['--stop']);
  assert.equal(stopped.exitCode, 0, stopped.stderr);
  assert.match(stopped.stdout, new RegExp(`\\(pid ${pid}\\) stopped`));
  assert.equal(alive(pid), false);
  const again = await runScript(tree, 'models/model-server.ts', ['--stop']);
  assert.equal(again.exitCode, 0);
  assert.match(again.stdout, /nothing stopped/);
});
