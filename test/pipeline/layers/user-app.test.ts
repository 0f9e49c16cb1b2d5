// shares the machine: it reads files and validates values, no server and no browser.
// make run-user-app's input checks (pipeline/layers/real-apps/user-app.ts) and the trace schema's rule
// for a user's app: its rows pass only as smoke rows; a shipped app's row still names a shipped family.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { codeRoot } from '../../../core/paths.ts';
import { isValid } from '../../../core/validate.ts';
import { readUserApp, severityTable, userAppTasks } from '../../../pipeline/layers/real-apps/user-app.ts';

const notes = path.join(codeRoot, 'examples', 'apps', 'notes');
const sample = JSON.parse(fs.readFileSync(path.join(codeRoot, 'analysis', 'queries', 'layers_real_apps.sample.jsonl'), 'utf8').split('\n')[0]!);
const realApp = { reset_ms: 1, writes: [], success_shown: null, boundary_at: 500, read_at: 501, returned: 0, loads: [] };

test("the notes example's files give the arm's 36 conditions, every one of the notes app, with the family's spec", () => {
  const files = readUserApp(path.join(notes, 'app.json'));
  const tasks = userAppTasks(files);
  assert.equal(tasks.length, 36);
  assert.deepEqual([...new Set(tasks.map((t) => t.app))], ['notes']);
  assert.equal(tasks.filter((t) => t.layer === 'baseline').length, 6);
  assert.ok(tasks.every((t) => t.target.value === 'Groceries' || t.target.value === 'Reading list'));
});

test("the motd example (PHP, a flat-file store) gives the arm's 36 conditions of its own family", () => {
  const files = readUserApp(path.join(codeRoot, 'examples', 'apps', 'motd', 'app.json'));
  const tasks = userAppTasks(files);
  assert.equal(tasks.length, 36);
  assert.deepEqual([...new Set(tasks.map((t) => t.app))], ['motd']);
  assert.deepEqual(files.app.postcondition, ['php', 'read.php']);
});

test('the per-severity table counts each policy, layer and severity apart, in the layers\' order', () => {
  const row = (policy: string, layer: string, severity: number, as: boolean, vts: boolean, error: string | null = null) =>
    ({ policy, layer, severity, apparent_success: as, vts, false_completion: as && !vts, error });
  const table = severityTable([
    row('selector-only', 'verification', 1, true, false), row('selector-only', 'state', 3, true, false), row('selector-only', 'state', 1, true, true),
    row('selector-only', 'state', 1, true, false), row('selector-only', 'baseline', 0, true, true), row('semantic-recovery', 'access', 2, false, false, 'boom'),
  ]).split('\n');
  assert.match(table[1]!, /^policy +layer +severity +n +as +vts +fc +error_n$/);
  assert.deepEqual(table.slice(2).map((l) => l.split(/ +/)), [
    ['selector-only', 'baseline', '0', '1', '1/1', '1/1', '0/1', '0'],
    ['selector-only', 'state', '1', '2', '2/2', '1/2', '1/2', '0'],
    ['selector-only', 'state', '3', '1', '1/1', '0/1', '1/1', '0'],
    ['selector-only', 'verification', '1', '1', '1/1', '0/1', '1/1', '0'],
    ['semantic-recovery', 'access', '2', '1', '0/1', '0/1', '0/1', '1'],
  ]);
});

test('a family of another app, or a malformed fault spec, is refused before anything starts, naming it', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-user-app-'));
  try {
    fs.cpSync(notes, dir, { recursive: true, filter: (f) => !f.endsWith('notes.json') });
    const family = path.join(dir, 'families', 'notes-title.json');
    const value = JSON.parse(fs.readFileSync(family, 'utf8'));
    fs.writeFileSync(family, JSON.stringify({ ...value, app: 'wordpress' }));
    assert.throws(() => readUserApp(path.join(dir, 'app.json')), /its app must say notes/);
    fs.writeFileSync(family, JSON.stringify({ ...value, spec: { ...value.spec, write: { method: 'POST', path: '(' } } }));
    assert.throws(() => userAppTasks(readUserApp(path.join(dir, 'app.json'))), /family notes-title: spec.*write\.path/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test("the trace schema takes a user's app and family on smoke rows only; a shipped app's row still names a shipped family", () => {
  const user = { ...sample, app: 'notes', template: 'notes-title', real_app: realApp };
  assert.equal(isValid('trace', { ...user, smoke: true }), true);
  assert.equal(isValid('trace', user), false, 'a registered row of a user app');
  assert.equal(isValid('trace', { ...sample, real_app: realApp }), true);
  assert.equal(isValid('trace', { ...sample, template: 'notes-title', smoke: true }), false, 'a WordPress row with a family WordPress does not have');
});
