// For reviewers (make verify calls this): rerun the whole reanalysis into a temporary folder and
// require the same bytes as analysis/out and as manifests/tables.sha256; render the figures from
// those fresh tables and require the bytes manifests/figures.sha256 lists. Returns the problems.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { sha256File } from '../../core/hash.ts';
import { reanalyze } from '../../analysis/reanalyze.ts';
import { rawFiles, studies } from '../../analysis/rows.ts';
import { renderFigures } from '../../figures/render.ts';
import { parseManifest } from './manifest.ts';
import { messages } from '../../core/messages.ts';

export interface VerifyAnalysisOptions { figures?: boolean }

/** Compares freshly generated files (in `fresh`, by name) with a manifest of `dir`'s files. */
async function compareWithManifest(manifest: string, dir: string, fresh: string, names: string[]): Promise<string[]> {
  const problems: string[] = [];
  if (!fs.existsSync(manifest)) return [`${rel(manifest)} is missing: run make reanalyze figures and commit it`];
  const listed = new Map(parseManifest(manifest).map((l) => [l.file, l.sha256]));
  const prefix = rel(dir) + '/';
  const outOfDate: string[] = [];
  for (const name of names) {
    const file = prefix + name;
    const sha = await sha256File(path.join(fresh, name));
    const want = listed.get(file);
    listed.delete(file);
    const onDisk = path.join(dir, name);
    // out of date, not tampered: the file on disk still is the one its manifest lists, but data/raw
    // now regenerates other bytes (a run or a --redo changed data/raw after the last reanalysis)
    if (want && want !== sha && fs.existsSync(onDisk) && (await sha256File(onDisk)) === want) {
      outOfDate.push(name);
      continue;
    }
    if (!want) problems.push(`${file}: regenerated but not listed in ${rel(manifest)}`);
    else if (want !== sha) problems.push(`${file}: regenerated from data/raw it differs from ${rel(manifest)}`);
    if (fs.existsSync(onDisk) && !fs.readFileSync(onDisk).equals(fs.readFileSync(path.join(fresh, name)))) {
      problems.push(`${file}: differs from what data/raw regenerates (run make reanalyze figures)`);
    }
  }
  if (outOfDate.length) problems.push(messages.analysisOutOfDate(rel(dir), rel(manifest), outOfDate));
  for (const file of listed.keys()) problems.push(`${file}: listed in ${rel(manifest)} but no longer regenerated`);
  return problems;
}

export async function verifyAnalysis(options: VerifyAnalysisOptions = {}): Promise<string[]> {
  // a tree with no registered rows and no tables manifest has nothing to verify yet
  const anyRows = studies.some((s) => rawFiles(s).length > 0);
  if (!anyRows && !fs.existsSync(paths.tablesManifest())) return [];
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rstack-verify-'));
  try {
    const tablesDir = path.join(tmp, 'tables');
    const result = await reanalyze({ outDir: tablesDir });
    if (result.problems.length) return result.problems.map((p) => `reanalysis: ${p}`);
    const problems = await compareWithManifest(paths.tablesManifest(), paths.analysisOut(), tablesDir, result.written);
    if (options.figures !== false) {
      const figuresDir = path.join(tmp, 'figures');
      const figures = await renderFigures({ dataDir: tablesDir, outDir: figuresDir });
      problems.push(...(await compareWithManifest(paths.figuresManifest(), paths.figuresOut(), figuresDir, figures)));
    }
    return problems;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
