// node --import tsx deploy/collect.ts RESULTS [INTO]: brings the data roots that the shards of a
// sharded run wrote on other machines (RESULTS/shard-1/, shard-2/, …: each one pod's RSTACK_ROOT)
// into this tree, so that `make merge` finds every shard here. Run files and excluded files are
// copied (times kept), never over a file that exists with other bytes (exit 2, naming it); the
// lines of data/runs.jsonl and data/excluded/REASONS.jsonl are appended unless already present.
// A file this tree has since moved to data/excluded/ (a merged shard) is not brought back.
// Repeating it adds nothing.
// INTO (default: this tree, or RSTACK_ROOT) is where they go: for the shards of a rerun
// (make reproduce REDO=1 SHARD=k/N SCRATCH=RESULTS/shard-k) a scratch folder, which also gets each
// shard's summary file (reproduce-redo-shard<k>of<N>.json); make reproduce REDO=1 SCRATCH=INTO then
// merges every arm and compares it.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fs, glob } from 'zx';

const usage = 'usage: node --import tsx deploy/collect.ts RESULTS_DIR [INTO]   (RESULTS_DIR holds shard-1/, shard-2/, … of one sharded run; INTO: default this tree)';
const fail = (message: string): never => { process.stderr.write(`${message}\n`); process.exit(2); };

const [results, into] = process.argv.slice(2);
if (!results || !fs.statSync(results, { throwIfNoEntry: false })?.isDirectory()) fail(usage);
const root = path.resolve(into ?? process.env.RSTACK_ROOT ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
fs.mkdirpSync(root);

const trees = (await glob('shard-*/', { cwd: results!, onlyDirectories: true, absolute: true })).map((t) => t.replace(/\/$/, '')).sort();
if (trees.length === 0) fail(`no shard-*/ folder in ${results}`);

/** Appends each non-empty line of `from` to `to` that `to` does not hold yet. */
function appendNewLines(from: string, to: string): void {
  if (!fs.existsSync(from)) return;
  fs.mkdirpSync(path.dirname(to));
  const have = new Set(fs.existsSync(to) ? fs.readFileSync(to, 'utf8').split('\n') : []);
  const add: string[] = [];
  for (const line of fs.readFileSync(from, 'utf8').split('\n')) {
    if (line === '' || have.has(line)) continue;
    have.add(line);
    add.push(line);
  }
  const text = fs.existsSync(to) ? fs.readFileSync(to, 'utf8') : '';
  if (add.length) fs.appendFileSync(to, (text && !text.endsWith('\n') ? '\n' : '') + add.map((l) => `${l}\n`).join(''));
  else if (!fs.existsSync(to)) fs.writeFileSync(to, '');
}

const reasons = path.join(root, 'data', 'excluded', 'REASONS.jsonl');
let copied = 0;
for (const tree of trees) {
  const files = [
    ...(await glob(['data/raw/**', 'data/excluded/**'], { cwd: tree, onlyFiles: true, dot: true, ignore: ['**/REASONS.jsonl', '**/.gitkeep'] })),
    ...(await glob('reproduce-redo-shard*of*.json', { cwd: tree, onlyFiles: true, deep: 1 })),
  ].sort();
  for (const f of files) {
    // collected before and since moved aside here (e.g. "merged into <run>"): never brought back
    if (fs.existsSync(reasons) && fs.readFileSync(reasons, 'utf8').includes(`"from":"${f}"`)) continue;
    const here = path.join(root, f);
    if (fs.existsSync(here)) {
      if (!fs.readFileSync(path.join(tree, f)).equals(fs.readFileSync(here))) fail(`refusing: ${f} exists here with other bytes than in ${tree}`);
      continue;
    }
    await fs.copy(path.join(tree, f), here, { preserveTimestamps: true, errorOnExist: true, overwrite: false });
    copied += 1;
  }
  appendNewLines(path.join(tree, 'data', 'excluded', 'REASONS.jsonl'), reasons);
  appendNewLines(path.join(tree, 'data', 'runs.jsonl'), path.join(root, 'data', 'runs.jsonl'));
}
process.stdout.write(`collected ${trees.length} shard trees from ${results} into ${root}: ${copied} files copied; next: make merge ARM=<arm> (a rerun's shards: make reproduce REDO=1 SCRATCH=${root})\n`);
