// make run-user-app: the real-applications harness on an application of the user's own, described
// by an app file (schemas/user-app.schema.json, docs/fault-proxy.md "Put your own app behind the
// fault proxy"). The same conditions generator (generate.ts), reference policies (policies.ts),
// trace and scoring (condition.ts) and run skeleton as make run-real-apps, unchanged; only the app
// comes from the user:
//
//   APP.json ─▶ its family files (schemas/real-app-family.schema.json) ─▶ conditions made in memory
//   (generateRealAppsTasks: baseline × 6 + 5 layers × 3 severities × 2 per family; nothing is read
//   from or written to data/tasks/) ─▶ units × 3 policies ─▶ one fault proxy ─▶ per unit: the
//   app file's reset command, its cookies, condition.ts, its postcondition command ─▶ smoke rows
//   in data/excluded/layers/real-apps/ (a user's app is not the record: never registered)
//
// The run gate still runs (pipeline/kernel/gate.ts): the user's files are not frozen inputs, so they
// never block it, but a tree whose frozen inputs differ from the ledger refuses every run, this one too.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Command } from '../../../core/cli.ts';
import { firstLine, RStackError, UsageError } from '../../../core/errors.ts';
import { readJsonFile } from '../../../core/validate.ts';
import { shownPath } from '../../../core/paths.ts';
import type { LayersRealAppsTask, RealAppFamily, UserApp } from '../../../core/contracts.ts';
import { startFaultProxy, compileSpec } from '../../../proxy/src/index.ts';
import type { RealApp, SessionCookie } from '../../../fixtures/real-app.ts';
import { checkAppCase } from '../../../fixtures/real-app.ts';
import { runSummary } from '../../../analysis/run-summary.ts';
import { runOneLine } from '../../../report-src/your-run.ts';
import { parseBrowserName } from '../../browser/launch.ts';
import { runArm } from '../../kernel/run.ts';
import { runFlags, runOptions } from '../../kernel/run-flags.ts';
import { userRunOutput } from '../../kernel/user-run.ts';
import { realAppsPlan, realAppsUnits, summaryTables } from './arm.ts';
import type { AppName, Family } from './families.ts';
import { generateRealAppsTasks, REAL_APPS_SEED } from './generate.ts';

const exec = promisify(execFile);
/** how long a reset or postcondition command may take */
const COMMAND_TIMEOUT_MS = 30_000;

export interface UserAppFiles { file: string; dir: string; app: UserApp; families: Family[] }

/** The app file and its family files, each validated against its schema; a family of another app is refused. */
export function readUserApp(file: string): UserAppFiles {
  if (!fs.existsSync(file)) throw new UsageError(`--app ${file}: no such file`);
  const app = readJsonFile<UserApp>(file, 'user-app');
  const dir = path.dirname(path.resolve(file));
  const families = app.families.map((f): Family => {
    const familyFile = path.resolve(dir, f);
    if (!fs.existsSync(familyFile)) throw new UsageError(`${shownPath(file)}: families names ${f}, which does not exist (${shownPath(familyFile)})`);
    const data = readJsonFile<RealAppFamily>(familyFile, 'real-app-family');
    if (data.app !== app.name || (data.spec as { family?: string }).family !== data.family) throw new UsageError(`${shownPath(familyFile)}: its app must say ${app.name} (the app file's name) and its spec.family ${data.family}`);
    // the proxy's own check of the fault spec, before anything starts (a variant's value fills it later)
    checkAppCase(data, shownPath(familyFile));
    return { id: data.family, app: app.name as AppName, data, appFault: data.app_case ?? null };
  });
  return { file, dir, app, families };
}

/** The conditions of the user's families, made in memory by the arm's own generator. */
export function userAppTasks(files: UserAppFiles, seed = REAL_APPS_SEED): LayersRealAppsTask[] {
  const tasks = generateRealAppsTasks(seed, files.families);
  // the proxy refuses a malformed spec naming the field: check each family's once, before any browser starts
  const checked = new Set<string>();
  for (const t of tasks) {
    if (checked.has(t.family)) continue;
    checked.add(t.family);
    try {
      compileSpec(t.spec, `family ${t.family}: spec`);
    } catch (cause) {
      throw new UsageError(firstLine(cause), cause);
    }
  }
  return tasks;
}

async function runCommand(argv: readonly string[], cwd: string, what: string): Promise<string> {
  try {
    const { stdout } = await exec(argv[0]!, argv.slice(1), { cwd, timeout: COMMAND_TIMEOUT_MS, maxBuffer: 1 << 20 });
    return stdout;
  } catch (cause) {
    const e = cause as { stderr?: string; code?: unknown };
    throw new RStackError(`${what} (${argv.join(' ')}) failed: ${firstLine(e.stderr?.trim() || cause)}`, { cause });
  }
}

/**
 * The user's app as the harness's RealApp: reset and the postcondition are the app file's commands,
 * the session its cookies file. Every postcondition query a family names is a method running the
 * postcondition command with the query and its args appended (readPostcondition calls it so).
 */
export function userRealApp(files: UserAppFiles): RealApp {
  const { app, dir } = files;
  const postcondition = async (query: string, args: unknown[]): Promise<string | null> => {
    const out = await runCommand([...app.postcondition, query, ...args.map(String)], dir, `${app.name}: the postcondition`);
    const value = out.replace(/\r?\n$/, '');
    return value === '' ? null : value;
  };
  const queries = Object.fromEntries(files.families.map((f) => [f.data.postcondition.query, (...args: unknown[]) => postcondition(f.data.postcondition.query, args)]));
  const host = new URL(app.origin).hostname;
  const real = {
    name: app.name,
    origin: app.origin,
    async start() { return { origin: app.origin, started: [] }; },
    async stop() { return undefined; },
    async status() {
      try {
        const res = await fetch(app.origin + (app.status ?? '/'), { redirect: 'manual', signal: AbortSignal.timeout(5000) });
        return res.status < 500;
      } catch {
        return false;
      }
    },
    async reset() { await runCommand(app.reset, dir, `${app.name}: the reset`); },
    async session(): Promise<SessionCookie[]> {
      if (!app.session) return [];
      const cookies = JSON.parse(fs.readFileSync(path.resolve(dir, app.session.cookies), 'utf8')) as SessionCookie[];
      return cookies.map((c) => ({ ...c, domain: c.domain || host }));
    },
    async query() { throw new RStackError(`${app.name}: a user's app is read by its postcondition command, not by SQL`); },
    ...queries,
  };
  // RealApp names the shipped apps; condition.ts uses name only in messages
  return real as unknown as RealApp;
}

/** The fields of a trace row the per-severity table reads. */
interface ScoredRow { policy: string; layer: string; severity: number; apparent_success: boolean; vts: boolean; false_completion: boolean; error: unknown }

/**
 * The run's rows per reference policy, layer and severity (the analysis tables stop at the layer):
 * where along a layer's severities a policy stops saving, or starts claiming saves that are not
 * there. Counts only (a smoke slice is too small for intervals); the rows' own scores.
 */
export function severityTable(rows: readonly ScoredRow[]): string {
  const groups = new Map<string, ScoredRow[]>();
  for (const r of rows) {
    const key = [r.policy, r.layer, r.severity].join('\u0000');
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  const layerOrder = ['baseline', 'access', 'perception', 'action', 'state', 'verification'];
  const keys = [...groups.keys()].sort((a, b) => {
    const [pa, la, sa] = a.split('\u0000');
    const [pb, lb, sb] = b.split('\u0000');
    return pa!.localeCompare(pb!) || layerOrder.indexOf(la!) - layerOrder.indexOf(lb!) || Number(sa) - Number(sb);
  });
  const head = ['policy', 'layer', 'severity', 'n', 'as', 'vts', 'fc', 'error_n'];
  const body = keys.map((key) => {
    const rs = groups.get(key)!;
    const k = (f: (r: ScoredRow) => boolean) => `${rs.filter(f).length}/${rs.length}`;
    const [policy, layer, severity] = key.split('\u0000');
    return [policy!, layer!, severity!, String(rs.length), k((r) => r.apparent_success), k((r) => r.vts), k((r) => r.false_completion), String(rs.filter((r) => r.error).length)];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return ['Per severity: each reference policy at each layer and severity (as, vts, fc: rows that showed success, that were truly saved, that claimed a save the store lacks)', line(head), ...body.map(line)].join('\n');
}

export const userAppOptions = {
  app: { type: 'string', help: 'the app file (schemas/user-app.schema.json): origin, reset, session, postcondition, families' },
  browser: { type: 'string', help: 'chromium (default, or $BROWSER) or firefox' },
  seed: { type: 'string', help: `the conditions' seed (default ${REAL_APPS_SEED})` },
  ...runOptions('unit'),
} as const;

export const userAppCommand: Command<typeof userAppOptions> = {
  name: 'make run-user-app',
  summary: "your own application behind the fault proxy: its families' conditions (baseline and the five layers at three severities, made in memory) × the 3 reference policies, scored by its postcondition command; smoke rows only, under runs/run-user-app-<name>/ (git-ignored), never the record",
  usage: 'make run-user-app APP=examples/apps/notes/app.json [BROWSER=firefox] [ARGS="--only notes-title-state"]',
  options: userAppOptions,
  async run(values) {
    if (!values.app) throw new UsageError('--app FILE is required (make run-user-app APP=FILE): the app file, schemas/user-app.schema.json');
    const browser = parseBrowserName(values.browser);
    const flags = { ...runFlags(values), smoke: true };
    if (flags.workers !== 1 || (flags.browsers ?? 1) !== 1) throw new UsageError('run-user-app runs one condition at a time (--workers 1): the app has one store, which every condition resets and reads');
    const files = readUserApp(values.app);
    const tasks = userAppTasks(files, values.seed);
    const app = userRealApp(files);
    if (!(await app.status())) throw new RStackError(`${app.name} does not answer at ${files.app.origin}${files.app.status ?? '/'}: start it first`, { exitCode: 2 });
    const proxy = await startFaultProxy();
    const output = userRunOutput({ verb: 'run-user-app', name: files.app.name, registered: false });
    try {
      const result = await runArm(flags, () => ({
        ...realAppsPlan({ browser, resources: { get: async () => ({ apps: { [app.name]: app } as unknown as Record<AppName, RealApp>, proxy }), close: async () => {}, pids: () => [] }, units: realAppsUnits(tasks) }),
        runPrefix: `layers-real-apps-${files.app.name}-${browser}`,
      }));
      process.stdout.write(`layers/real-apps ${files.app.name} ${browser}: ${result.rows.length} smoke rows in ${shownPath(result.file)}\n\n${runSummary(result.rows, summaryTables)}\n\n${severityTable(result.rows as unknown as ScoredRow[])}\n`);
      if (output) process.stdout.write(`\n${runOneLine(result.rows as never, shownPath(output.folder))}\n`);
      return 0;
    } finally {
      await proxy.close();
      output?.end();
    }
  },
};
