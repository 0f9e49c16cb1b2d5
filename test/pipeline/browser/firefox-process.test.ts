// pipeline/browser/firefox-process.ts: the profile's user.js as we write it reads back the same, and a
// playwright-core style file (its own spacing, a quoted string value) reads too.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readUserPrefs, writeUserPrefs } from '../../../pipeline/browser/firefox-process.ts';

test("a profile's user.js reads back as written: our defaults, the extra prefs over them, each value's type kept", (t) => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-prefs-'));
  t.after(() => fs.rmSync(profile, { recursive: true, force: true }));
  writeUserPrefs(profile, { 'fission.webContentIsolationStrategy': 0, 'services.settings.server': 'http://127.0.0.1:1/"quoted"', 'a.b': true });
  const back = readUserPrefs(profile);
  assert.equal(back['fission.webContentIsolationStrategy'], 0);
  assert.equal(back['services.settings.server'], 'http://127.0.0.1:1/"quoted"', 'the extra value over the default one');
  assert.equal(back['a.b'], true);
  assert.equal(back['toolkit.telemetry.enabled'], false, 'a default of ours');
  fs.writeFileSync(path.join(profile, 'user.js'), '// a comment\nuser_pref("dom.ipc.processCount",   8);\nuser_pref("browser.startup.homepage", "about:blank");\n');
  assert.deepEqual(readUserPrefs(profile), { 'dom.ipc.processCount': 8, 'browser.startup.homepage': 'about:blank' });
});
