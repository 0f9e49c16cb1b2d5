// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// The observer extension that watches a Firefox page for the harness: its files carry nothing of
// any condition (the page's scripts cannot see them, and an agent could read the profile), and its
// listener takes moments only from the extension's own address.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { observerExtensionFiles, startObserver } from '../../../pipeline/agents/observer-extension.ts';
import { generateLayersTasks } from '../../../pipeline/layers/generate.ts';

test('the extension files hold no layer, severity, condition id or fault parameter', () => {
  const files = Object.values(observerExtensionFiles('http://127.0.0.1:1/token')).join('\n');
  // ('state' is not searched for: the success indication itself is [data-state=success])
  const names = [/\b(baseline|access|perception|action|verification)\b/i, /severity/i, /\bfaults?\b/i, /swallow/i, /commit_?delay/i, /saves_?required/i, /ignore_?saves/i, /decoy/i, /"layer"/i];
  for (const pattern of names) assert.doesNotMatch(files, pattern);
  for (const task of generateLayersTasks()) {
    assert.ok(!files.includes(task.condition_id), task.condition_id);
    for (const v of [task.faults.reveal_after_ms, task.faults.commit_delay_ms].filter((x) => x > 0)) assert.doesNotMatch(files, new RegExp(`\\b${v}\\b`), `${task.condition_id}: ${v}`);
  }
});

test('the listener takes a moment only at its token, and hands it to the page being opened', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-observer-'));
  const observer = await startObserver(dir);
  try {
    const background = fs.readFileSync(path.join(dir, 'background.js'), 'utf8');
    const url = background.match(/"(http:\/\/127\.0\.0\.1:\d+\/[0-9a-f]{32})"/)![1]!;
    const seen: string[] = [];
    observer.listen({ successShown: (t) => seen.push(`success ${t}`), revealed: (t) => seen.push(`revealed ${t}`) });
    const wrong = await fetch(new URL('/not-the-token', url), { method: 'POST', body: JSON.stringify({ kind: 'success', at: 1 }) });
    assert.equal(wrong.status, 404);
    assert.equal((await fetch(url, { method: 'POST', body: '{"kind":"success","at":"soon"}' })).status, 204);
    assert.equal(await observer.revealed(50), false, 'nothing revealed yet');
    await fetch(url, { method: 'POST', body: JSON.stringify({ kind: 'success', at: 2 }) });
    await fetch(url, { method: 'POST', body: JSON.stringify({ kind: 'revealed', at: 3 }) });
    assert.equal(await observer.revealed(1000), true);
    assert.deepEqual(seen, ['success 2', 'revealed 3']);
    observer.listen({ successShown: () => {}, revealed: () => {} });
    assert.equal(await observer.revealed(50), false, 'a new page starts unrevealed');
  } finally {
    await observer.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
