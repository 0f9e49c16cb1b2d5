// shares the machine: no browser; a throw-away tree or pure functions, and nothing it asserts depends on how fast it runs.
// Every relative link in README.md and docs/*.md resolves: the file exists, and a #fragment names a
// heading of that page (GitHub's slug: lower case, punctuation dropped, spaces to hyphens).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { codeRoot } from '../../core/paths.ts';

const pages = ['README.md', ...fs.readdirSync(path.join(codeRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\- _]/gu, '').replace(/ /g, '-');
const anchorsOf = (file: string) => {
  const text = fs.readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));
};
/** [text](target) outside code, with its line; external links and mail aside. */
const linksOf = (file: string) => {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  let fenced = false;
  const found: { line: number; target: string }[] = [];
  lines.forEach((l, i) => {
    if (l.startsWith('```')) fenced = !fenced;
    if (fenced) return;
    for (const m of l.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)\)/g)) {
      if (!/^[a-z]+:/.test(m[1]!)) found.push({ line: i + 1, target: m[1]! });
    }
  });
  return found;
};

test('every relative link in README.md and docs/ resolves, to a file and to a heading', () => {
  let checked = 0;
  const broken: string[] = [];
  for (const page of pages) {
    const from = path.join(codeRoot, page);
    for (const { line, target } of linksOf(from)) {
      checked++;
      const [file, fragment] = target.split('#');
      const to = file ? path.resolve(path.dirname(from), file) : from;
      if (!fs.existsSync(to)) { broken.push(`${page}:${line}: ${target} (no such file)`); continue; }
      if (fragment && to.endsWith('.md') && !anchorsOf(to).has(fragment)) broken.push(`${page}:${line}: ${target} (no such heading)`);
    }
  }
  assert.deepEqual(broken, []);
  assert.ok(checked >= 20, `${checked} links checked`);
});

test('the README is a front door: at most ~200 lines, every docs page linked from it or from docs/README.md', () => {
  const readme = fs.readFileSync(path.join(codeRoot, 'README.md'), 'utf8');
  assert.ok(readme.split('\n').length <= 200, `README.md has ${readme.split('\n').length} lines`);
  const index = fs.readFileSync(path.join(codeRoot, 'docs', 'README.md'), 'utf8');
  for (const page of pages.filter((p) => p.startsWith('docs/') && p !== 'docs/README.md')) {
    const name = path.basename(page);
    assert.ok(index.includes(`](${name})`) || readme.includes(`](${page})`), `${page} is linked from docs/README.md or the README`);
  }
  // the glossary comes before the words it defines are used
  const glossary = readme.indexOf('## Words used below');
  assert.ok(glossary > 0, 'a glossary');
  for (const word of ['AS', 'VTS', 'FC', 'arm', 'ledger', 'prereg', 'freeze', 'Arm B']) {
    const first = new RegExp(`\\b${word}\\b`).exec(readme)?.index ?? -1;
    assert.ok(first > glossary, `${word} is first used after the glossary`);
  }
});
