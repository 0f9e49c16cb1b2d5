// make bench: the naive harness against ours, side by side on the same seeded slices, alternating
// block by block; writes bench/results.json (committed) and its rows to bench/scratch/ (not).
// ARGS=--load: the load trial instead — ours unloaded against ours under a CPU hog on every core;
// writes bench/load-results.json. Either way, and alone with ARGS=--report (seconds, not hours), the
// report's measurement: make report's generation time and size, and the page's load, filter and open
// times in Chromium (pipeline/bench/report.ts) → bench/report-results.json. The flow is drawn at the top of pipeline/bench/run-bench.ts.
// Reads: the ledger (gate, read only), data/tasks, data/raw (the registered rows, for flips).
// Writes: bench/ only — never data/, data/runs.jsonl, the ledger or manifests/.
import { runResetBench } from '../bench/resets.ts';
import fs from 'node:fs';
import path from 'node:path';
import { main, intOption } from '../../core/cli.ts';
import { UsageError } from '../../core/errors.ts';
import { codeRoot, rel } from '../../core/paths.ts';
import { runBench, sliceIds, type SliceId } from '../bench/run-bench.ts';
import { benchReport, reportBenchLine } from '../bench/report.ts';
import { runModelBench } from '../bench/models.ts';
import type { Harness } from '../bench/harness.ts';
import { executablePath } from '../browser/launch.ts';
import { measureVerifierOverhead } from '../bench/verifier-overhead.ts';
import { firefoxPathHelp, parseFirefoxPath } from '../browser/firefox-path.ts';
import { firefoxCostVariants, runFirefoxCost, type FirefoxCostVariant } from '../bench/firefox-cost.ts';
import { FAST_BROWSERS, FAST_WORKERS, chromiumChoice, chromiumChoiceHelp } from '../browser/speed.ts';
import { REGISTERED_MAX_WORKERS, registeredBrowsers } from '../evidence/matrix.ts';
import { REAL_APPS_WORKERS } from '../layers/real-apps/arm.ts';
import { codeState } from '../kernel/run-log.ts';

/** ours' defaults (chosen with the bench; see docs/speed.md and pipeline/browser/speed.ts) */
// (the Firefox evidence slice: Arm A's rows at once as its amendments allow, one Firefox each, as
// make reproduce REDO=1 runs them; evidence/matrix.ts)
// (the real-applications slice: REAL_APPS_WORKERS, a copy of each app per worker beyond the first; issue 49)
export const OURS_WORKERS = { 'layers-chromium': FAST_WORKERS.layers.chromium, 'layers-firefox': FAST_WORKERS.layers.firefox, 'evidence-chromium': FAST_WORKERS.evidenceChromium, 'evidence-firefox': REGISTERED_MAX_WORKERS['arm-a'], 'real-apps-chromium': REAL_APPS_WORKERS } as const;
export const OURS_BROWSERS = { 'layers-firefox': FAST_BROWSERS.layers.firefox, 'evidence-firefox': registeredBrowsers('arm-a', REGISTERED_MAX_WORKERS['arm-a']) } as const;

const stampNow = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '');

await main({
  name: 'rstackbench bench',
  summary: 'the naive harness against ours on the same stratified slices (layers and evidence, each in Chromium and Firefox): wall times, ratios, overhead, peak memory, flips',
  usage: 'make bench [ARGS="--load" | "--report" | "--slice-size 48 --evidence-size 20"]',
  options: {
    report: { type: 'boolean', default: false, help: "only the report's measurement (make report's time and size; load, filter and open times in Chromium) → bench/report-results.json" },
    resets: { type: 'string', help: "instead: the real applications' per-condition restore, this many resets of each (WordPress, MediaWiki; started if not running): median and spread → bench/resets-results.json" },
    'firefox-cost': { type: 'string', help: `instead: where Firefox's CPU per trial goes, this many cycles per block (context, page, load, click, "Saved", close) under each variant (${firefoxCostVariants.join(', ')}), Firefox's whole process tree read from /proc; --blocks interleaved blocks (default 4) → bench/firefox-cost-results.json. On an idle machine` },
    variants: { type: 'string', help: `with --firefox-cost: which variants, comma-separated (default all: ${firefoxCostVariants.join(',')})` },
    models: { type: 'string', help: 'instead: the cost of local models, comma-separated (smollm2-135m,gemma3-270m): tokens/s, plans per minute, peak memory, with and without the JSON-schema grammar → bench/models-results.json' },
    requests: { type: 'string', default: '4', help: 'with --models: requests per model and variant (the pilot\'s prompts on the first sampled conditions)' },
    'browser-use': { type: 'string', default: '3', help: 'with --models: the browser-use example on this many baseline conditions per model (one per app in turn; 0 skips): wall time and steps per condition' },
    load: { type: 'boolean', default: false, help: 'the load trial: ours unloaded against ours under a CPU hog on every core (bounded in time, stopped after each loaded block); writes bench/load-results.json' },
    slices: { type: 'string', default: sliceIds.join(','), help: `which slices, comma-separated: ${sliceIds.join(', ')}` },
    'slice-size': { type: 'string', default: '288', help: 'layers units per browser, stratified over template × layer × severity × policy (288 = a third of the main arm)' },
    'real-apps-size': { type: 'string', default: '36', help: 'real-applications units (Chromium, version 1), stratified over app × layer × policy' },
    'real-apps-workers': { type: 'string', default: String(OURS_WORKERS['real-apps-chromium']), help: 'ours: units at once in the real-applications slice, each worker beyond the first on its own copy of each app (the naive harness runs 1, as the registered runs did)' },
    'evidence-size': { type: 'string', default: '64', help: 'evidence rows per browser (the controlled arm in Chromium, Arm A in Firefox), stratified over scenario × delay' },
    blocks: { type: 'string', default: '4', help: 'interleaving blocks per slice; the two variants alternate order block by block' },
    seed: { type: 'string', default: 'bench/1', help: 'the seed of the stratified choice' },
    workers: { type: 'string', default: String(OURS_WORKERS['layers-chromium']), help: 'ours: units at once in the layers Chromium slice (the naive harness always runs 1)' },
    'firefox-workers': { type: 'string', default: String(OURS_WORKERS['layers-firefox']), help: 'ours: units at once in the layers Firefox slice' },
    'firefox-browsers': { type: 'string', default: String(OURS_BROWSERS['layers-firefox']), help: 'ours: Firefox processes the layers Firefox slice\'s units are spread over' },
    'evidence-workers': { type: 'string', default: String(OURS_WORKERS['evidence-chromium']), help: 'ours: units at once in the evidence Chromium slice (their observation windows overlap)' },
    'evidence-firefox-workers': { type: 'string', default: String(OURS_WORKERS['evidence-firefox']), help: 'ours: rows at once in the evidence Firefox slice (Arm A)' },
    'evidence-firefox-browsers': { type: 'string', default: String(OURS_BROWSERS['evidence-firefox']), help: "ours: Firefox processes the evidence Firefox slice's rows are spread over" },
    chromium: { type: 'string', default: 'shell', help: `ours' Chromium: ${chromiumChoiceHelp}; the naive harness always runs the full one` },
    'firefox-path': { type: 'string', default: 'lean', help: `ours' Firefox path: ${firefoxPathHelp}; default lean, the path both Firefox slices' arms (layers main, Arm A) take since their adoption amendments; the naive harness always takes playwright` },
    'hog-seconds': { type: 'string', default: '3600', help: 'load trial: the most seconds the CPU hog may run (each hog process also ends when the bench does)' },
    out: { type: 'string', help: "the results file (default bench/results.json, or bench/load-results.json with --load, or bench/report-results.json with --report); the report's measurement is written beside it as report-results.json" },
    scratch: { type: 'string', help: "the folder for the bench's rows (default bench/scratch/<time>; not registered data)" },
    'verifier-actions': { type: 'string', default: '40', help: "the verifier's overhead per action: this many saves of the controlled app in Chromium, bare and verified (0: not measured)" },
  },
  async run(values) {
    if (values.resets) {
      const out = path.resolve(values.out ?? path.join(codeRoot, 'bench', 'resets-results.json'));
      const results = await runResetBench(intOption(values.resets, 'resets', 20, 1));
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
      process.stdout.write(`${rel(out)}\n${results.apps.map((a) => `${a.app}: reset median ${a.median_ms} ms (${a.min_ms}–${a.max_ms}) over ${results.n}`).join('\n')}\n`);
      return 0;
    }
    if (values['firefox-cost']) {
      const out = path.resolve(values.out ?? path.join(codeRoot, 'bench', 'firefox-cost-results.json'));
      const variants = (values.variants ?? firefoxCostVariants.join(',')).split(',').map((v) => v.trim()).filter(Boolean);
      for (const v of variants) if (!firefoxCostVariants.includes(v as FirefoxCostVariant)) throw new UsageError(`--variants: unknown variant ${JSON.stringify(v)}; use ${firefoxCostVariants.join(', ')}`);
      const results = await runFirefoxCost({
        cycles: intOption(values['firefox-cost'], 'firefox-cost', 25, 1), blocks: intOption(values.blocks, 'blocks', 4, 1),
        variants: variants as FirefoxCostVariant[], progress: (line) => process.stderr.write(line + '\n'),
      });
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, JSON.stringify({ ...results, code: codeState() }, null, 2) + '\n');
      const lines = [`${rel(out)} (Firefox ${results.firefox}; ${results.blocks} blocks × ${results.cycles} cycles; load ${results.load_before.toFixed(2)} → ${results.load_after.toFixed(2)})`];
      for (const v of results.variants) lines.push(`  ${v.variant.padEnd(17)} ${v.cpu_s_per_cycle.toFixed(3)} CPU-s/cycle${v.vs_pw_trace === null ? '' : ` (${v.vs_pw_trace >= 0 ? '+' : ''}${(v.vs_pw_trace * 100).toFixed(0)}% vs pw-trace)`}, ${v.wall_ms_per_cycle} ms/cycle, ${v.processes_per_cycle} processes started/cycle; blocks ${v.blocks.join(' ')}`);
      for (const sh of results.shares) lines.push(`  share: ${sh.what}: ${sh.cpu_s_per_cycle.toFixed(3)} CPU-s/cycle (${(sh.of_pw_trace * 100).toFixed(0)}% of pw-trace)`);
      process.stdout.write(lines.join('\n') + '\n');
      return 0;
    }
    if (values.models) {
      const out = path.resolve(values.out ?? path.join(codeRoot, 'bench', 'models-results.json'));
      const results = await runModelBench({ models: values.models.split(',').map((m) => m.trim()).filter(Boolean), requests: intOption(values.requests, 'requests', 4), browserUse: intOption(values['browser-use'], 'browser-use', 3, 0) });
      fs.mkdirSync(path.dirname(out), { recursive: true });
      fs.writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
      process.stdout.write(`${rel(out)}\n${JSON.stringify(results.models, null, 2)}\n`);
      return 0;
    }
    // the report's measurement: --out itself with --report, else beside the results file
    const reportOut = values.report && values.out ? path.resolve(values.out) : path.join(values.out ? path.dirname(path.resolve(values.out)) : path.join(codeRoot, 'bench'), 'report-results.json');
    const measureReport = async (scratch: string) => {
      const r = await benchReport(path.join(scratch, 'report'));
      fs.mkdirSync(path.dirname(reportOut), { recursive: true });
      fs.writeFileSync(reportOut, JSON.stringify(r, null, 2) + '\n');
      return `${rel(reportOut)}\n${reportBenchLine(r)}`;
    };
    if (values.report) {
      const scratch = path.resolve(values.scratch ?? path.join(codeRoot, 'bench', 'scratch', stampNow()));
      process.stdout.write((await measureReport(scratch)) + '\n');
      return 0;
    }
    const slices = values.slices!.split(',').map((s) => s.trim()).filter(Boolean);
    for (const s of slices) if (!sliceIds.includes(s as SliceId)) throw new UsageError(`--slices: unknown slice ${JSON.stringify(s)}; use ${sliceIds.join(', ')}`);
    const full = executablePath('chromium');
    const oursChromium = chromiumChoice(values.chromium) ?? full;
    const naive: Harness = { name: 'naive', workers: 1, chromium: full };
    const firefoxPath = parseFirefoxPath(values['firefox-path']!);
    const ours = (workers: number, browsers = 1): Harness => ({ name: 'ours', workers, browsers, chromium: oursChromium, firefoxPath });
    const stamp = stampNow();
    const scratchDir = path.resolve(values.scratch ?? path.join(codeRoot, 'bench', 'scratch', stamp));
    const out = path.resolve(values.out ?? path.join(codeRoot, 'bench', values.load ? 'load-results.json' : 'results.json'));
    const results = await runBench({
      mode: values.load ? 'load' : 'compare',
      slices: slices as SliceId[],
      layersSize: intOption(values['slice-size'], 'slice-size', 288),
      evidenceSize: intOption(values['evidence-size'], 'evidence-size', 64),
      realAppsSize: intOption(values['real-apps-size'], 'real-apps-size', 36),
      blocks: intOption(values.blocks, 'blocks', 4),
      seed: values.seed!,
      naive,
      ours: {
        'layers-chromium': ours(intOption(values.workers, 'workers', 1)),
        'layers-firefox': ours(intOption(values['firefox-workers'], 'firefox-workers', 1), intOption(values['firefox-browsers'], 'firefox-browsers', 1)),
        'evidence-chromium': ours(intOption(values['evidence-workers'], 'evidence-workers', 1)),
        'evidence-firefox': ours(intOption(values['evidence-firefox-workers'], 'evidence-firefox-workers', 1), intOption(values['evidence-firefox-browsers'], 'evidence-firefox-browsers', 1)),
        'real-apps-chromium': ours(intOption(values['real-apps-workers'], 'real-apps-workers', 1)),
      },
      hogSeconds: intOption(values['hog-seconds'], 'hog-seconds', 3600),
      scratchDir,
    });
    // the verifier's cost per action, on the same fixture (compare mode only)
    const verifierActions = intOption(values['verifier-actions'], 'verifier-actions', 0, 0);
    const overhead = !values.load && verifierActions > 0 ? await measureVerifierOverhead({ actions: verifierActions, chromium: oursChromium }) : null;
    if (overhead) Object.assign(results, { verifier_overhead: overhead });
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
    const lines = [`${rel(out)} (rows in ${rel(scratchDir)})`];
    for (const [id, s] of Object.entries(results.slices) as [string, Record<string, any>][]) {
      const [a, b] = results.mode === 'compare' ? [s.naive, s.ours] : [s.unloaded, s.loaded];
      const gates = s.gates_failed ? `; rows failing a gate ${Object.values(s.gates_failed as Record<string, Record<string, string[]>>).map((g) => Object.values(g).flat().length).join(' → ')}` : '';
      const realApps = a.cpu_s_per_trace ? `; restore median ${a.reset_ms_median} → ${b.reset_ms_median} ms; CPU s/trace ${Object.keys(a.cpu_s_per_trace).map((g) => `${g} ${a.cpu_s_per_trace[g]} → ${b.cpu_s_per_trace[g]}`).join(', ')}` : '';
      lines.push(`  ${id.padEnd(18)} ratio ${s.ratio} (blocks' median ${s.block_ratio_median}); ${a.traces_per_s} → ${b.traces_per_s} traces/s; overhead ${a.overhead_ms_per_trace} → ${b.overhead_ms_per_trace} ms/trace; peak RSS ${a.peak_rss_mb} → ${b.peak_rss_mb} MB; unflagged flips ${s.flips_unflagged}${gates}${realApps}`);
    }
    lines.push(`ratio (layers Chromium): ${results.ratio}; flips: ${results.flips}`);
    if (overhead) {
      const f = (x: { median_ms: number | null; p95_ms: number | null }) => `median ${x.median_ms} ms, p95 ${x.p95_ms} ms`;
      lines.push(`verifier (${overhead.actions} saves each, Chromium): bare ${f(overhead.bare)}; verified ${f(overhead.verified)}; with re-read ${f(overhead.reread)}`);
      lines.push(`  overhead per action: ${f(overhead.overhead)}; with re-read ${f(overhead.overhead_reread)}; not closed: ${overhead.not_closed}`);
      lines.push(`  retry pattern (re-read, closed at the first attempt): ${f(overhead.retry)}, overhead ${f(overhead.overhead_retry)}; one store read before a repeat: ${f(overhead.check)}`);
    }
    for (const f of results.flipped_rows.slice(0, 30)) lines.push(`  flip ${f.slice} ${f.unit} (${f.between}): ${f.a} → ${f.b}${f.errors.some(Boolean) ? ` [errors: ${f.errors.map((e) => e ?? '-').join(' | ')}]` : ''}`);
    lines.push(await measureReport(scratchDir));
    process.stdout.write(lines.join('\n') + '\n');
    return 0;
  },
});
