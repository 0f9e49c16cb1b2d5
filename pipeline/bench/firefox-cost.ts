// make bench ARGS=--firefox-cost: where Firefox's CPU per trial goes (issue 38). One trial is one
// cycle of what every layers trace does around its agent: a fresh browser context, a page, a load,
// a click whose POST the page answers with "Saved", the wait for it, the context closed. The cycle
// runs under several variants, each changing one thing, so that the differences between them are the
// shares of the cost:
//
//   pw-trace        playwright-core 1.64 (moz-firefox), as a layers trace: a binding and an init script per context
//   pw-bare         the same without the binding and the init script            → their share
//   pw-fission-off  pw-trace with fission.webContentIsolationStrategy = 0        → site isolation's share
//   pw-tabs         pw-trace with each page a tab in a host window (the lean path's tab, browser/firefox-path.ts),
//                   not a window of its own                                       → the window's share
//   pw-tabs-fission-off pw-tabs with site isolation off: the lean path (FIREFOX_TRIAL_PATH=lean) → both levers at once
//   bidi-listening  our own raw BiDi client (bidi.ts) on the harness's own profile (firefox-process.ts),
//                   subscribed as Playwright subscribes at connect (five modules, an auth intercept,
//                   a response-body collector), a fresh user context per cycle
//   bidi-bare       the same, nothing subscribed                                  → the subscriptions' share
//   bidi-fission-off bidi-bare with site isolation off
//   bidi-pw-profile bidi-listening on the preferences Playwright writes into its own profile (read
//                   from the user.js of a Playwright-launched Firefox), over the harness's
//                                                                                 → the profiles' share
//   bidi-pw-window  bidi-pw-profile with a new window per cycle, as Playwright opens a page, not a tab
//                                                                                 → the window's share, raw
//   pw-trace − bidi-pw-profile: Playwright's own per-context and per-page work
//
// CPU is Firefox's whole process tree from /proc: every live process's utime + stime, and every live
// process's cutime + cstime (its reaped children: a content process that ended in the block), read
// just before the first counted cycle and just after the last, before the browser closes. Blocks
// interleave the variants, their order rotating block by block (the machine's noise hits all alike),
// one fresh browser per variant and block, a warm-up cycle not counted. Medians of the blocks.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { firefox, type Browser } from 'playwright-core';
import { median } from '../../core/stats.ts';
import { processTable, processTree, TICKS_PER_S } from '../../core/proc.ts';
import { executablePath, launchOptions } from '../browser/launch.ts';
import { connectBiDi, type BiDiConnection } from '../browser/bidi.ts';
import { launchFirefoxProcess, readUserPrefs, type FirefoxPrefs } from '../browser/firefox-process.ts';
import { LEAN_PREFS, openPagesAsTabs } from '../browser/firefox-path.ts';

export const firefoxCostVariants = ['pw-trace', 'pw-bare', 'pw-fission-off', 'pw-tabs', 'pw-tabs-fission-off', 'bidi-pw-window', 'bidi-pw-profile', 'bidi-listening', 'bidi-bare', 'bidi-fission-off'] as const;
export type FirefoxCostVariant = (typeof firefoxCostVariants)[number];

const FISSION_OFF = LEAN_PREFS; // site isolation off: fission.webContentIsolationStrategy 0

/** The one page: a button whose POST the server answers, then "Saved" in the page (127.0.0.1 only). */
const PAGE = `<!doctype html><meta charset="utf-8"><title>cycle</title>
<button id="save">Save</button><p id="status"></p>
<script>
document.getElementById('save').addEventListener('click', async () => {
  const r = await fetch('/save', { method: 'POST', body: 'x=1' });
  if (r.ok) document.getElementById('status').textContent = 'Saved';
});
</script>`;

async function startPageServer(): Promise<{ origin: string; saves: () => number; close: () => Promise<void> }> {
  let saves = 0;
  const server = http.createServer((req, res) => {
    if (req.method === 'POST' && req.url === '/save') {
      req.resume();
      req.on('end', () => { saves++; res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'); });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(PAGE);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, saves: () => saves, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

// ── /proc: a process tree's CPU ─────────────────────────────────────────────────────────────────

/** CPU seconds of a process tree so far, its reaped children included. */
export function treeCpuSeconds(root: number): number {
  return processTree(root).reduce((sum, s) => sum + s.ticks + s.childTicks, 0) / TICKS_PER_S;
}

/** The browser's root process: a child of this process running the given executable's binary. */
function browserRoot(executable: string, before: Set<number>): number {
  const real = fs.realpathSync(executable);
  const mine = processTable().filter((s) => s.ppid === process.pid && !before.has(s.pid));
  const found = mine.find((s) => { try { return fs.realpathSync(`/proc/${s.pid}/exe`) === real; } catch { return false; } });
  if (!found) throw new Error(`no ${real} process among this process's children`);
  return found.pid;
}

const childPids = () => new Set(processTable().filter((s) => s.ppid === process.pid).map((s) => s.pid));

// ── the variants ────────────────────────────────────────────────────────────────────────────────

interface Driver { root: number; version: string; cycle(origin: string): Promise<void>; close(): Promise<void> }

const WATCH = `(() => {
  const seen = () => { const el = document.getElementById('status'); if (el && el.textContent === 'Saved') { window.__cycleSaved?.(Date.now()); return true; } return false; };
  new MutationObserver(() => seen()).observe(document, { subtree: true, childList: true, characterData: true });
})();`;

type PlaywrightVariant = 'pw-trace' | 'pw-bare' | 'pw-fission-off' | 'pw-tabs' | 'pw-tabs-fission-off';

async function playwrightDriver(variant: PlaywrightVariant): Promise<Driver> {
  const executable = executablePath('firefox');
  const before = childPids();
  const options = launchOptions('firefox');
  const fissionOff = variant === 'pw-fission-off' || variant === 'pw-tabs-fission-off';
  const browser: Browser = await firefox.launch(fissionOff ? { ...options, firefoxUserPrefs: FISSION_OFF } : options);
  if (variant === 'pw-tabs' || variant === 'pw-tabs-fission-off') openPagesAsTabs(browser);
  const root = browserRoot(executable, before);
  return {
    root, version: browser.version(),
    async cycle(origin) {
      const context = await browser.newContext();
      if (variant !== 'pw-bare') {
        await context.exposeBinding('__cycleSaved', () => undefined);
        await context.addInitScript({ content: WATCH });
      }
      const page = await context.newPage();
      await page.goto(origin + '/');
      await page.locator('#save').click();
      await page.getByText('Saved').waitFor();
      await context.close();
    },
    close: () => browser.close(),
  };
}

const PLAYWRIGHT_EVENTS = ['browsingContext', 'network', 'log', 'script', 'input'];

/** The preferences playwright-core writes into the profile of a Firefox it launches: its user.js, read while that Firefox runs. */
export async function playwrightFirefoxPrefs(): Promise<FirefoxPrefs> {
  const executable = executablePath('firefox');
  const before = childPids();
  const browser = await firefox.launch(launchOptions('firefox'));
  try {
    const args = fs.readFileSync(`/proc/${browserRoot(executable, before)}/cmdline`, 'utf8').split('\0');
    const at = args.findIndex((a) => a === '-profile' || a === '--profile');
    if (at < 0) throw new Error(`no -profile among the arguments of Playwright's Firefox: ${args.join(' ')}`);
    const prefs = readUserPrefs(args[at + 1]!);
    if (!Object.keys(prefs).length) throw new Error("Playwright's Firefox profile has no user_pref lines in its user.js");
    return prefs;
  } finally {
    await browser.close();
  }
}

type BidiVariant = 'bidi-pw-window' | 'bidi-pw-profile' | 'bidi-listening' | 'bidi-bare' | 'bidi-fission-off';

async function bidiDriver(variant: BidiVariant, pwPrefs: FirefoxPrefs | null): Promise<Driver> {
  const executable = executablePath('firefox');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'rsb-firefox-cost-'));
  const before = childPids();
  const onPwProfile = variant === 'bidi-pw-profile' || variant === 'bidi-pw-window';
  const extra = variant === 'bidi-fission-off' ? FISSION_OFF : onPwProfile ? pwPrefs! : {};
  const ff = await launchFirefoxProcess(executable, profile, 30_000, extra);
  const root = browserRoot(executable, before);
  let bidi: BiDiConnection | null = null;
  try {
    bidi = await connectBiDi(ff.sessionUrl);
    const session = await bidi.send<{ capabilities: { browserVersion: string } }>('session.new', { capabilities: { alwaysMatch: { webSocketUrl: true, unhandledPromptBehavior: { default: 'ignore' } } } });
    if (variant === 'bidi-listening' || onPwProfile) {
      await bidi.send('session.subscribe', { events: PLAYWRIGHT_EVENTS });
      await bidi.send('network.addIntercept', { phases: ['authRequired'] });
      await bidi.send('network.addDataCollector', { dataTypes: ['response'], maxEncodedDataSize: 20_000_000 });
    }
    const b = bidi;
    return {
      root, version: session.capabilities.browserVersion,
      async cycle(origin) {
        const { userContext } = await b.send<{ userContext: string }>('browser.createUserContext', {});
        const { context } = await b.send<{ context: string }>('browsingContext.create', { type: variant === 'bidi-pw-window' ? 'window' : 'tab', userContext });
        await b.send('browsingContext.navigate', { context, url: origin + '/', wait: 'complete' });
        const result = await b.send<{ type: string; result?: { value?: unknown } }>('script.callFunction', {
          target: { context }, awaitPromise: true,
          functionDeclaration: `() => new Promise((resolve) => {
            const status = document.getElementById('status');
            const done = () => status.textContent === 'Saved' && (resolve(true), true);
            new MutationObserver(done).observe(status, { subtree: true, childList: true, characterData: true });
            document.getElementById('save').click();
            setTimeout(() => resolve(false), 10000);
          })`,
        });
        if (result.type !== 'success' || result.result?.value !== true) throw new Error(`bidi cycle: no "Saved" within 10 s (${JSON.stringify(result)})`);
        await b.send('browser.removeUserContext', { userContext });
      },
      async close() { await b.send('session.end').catch(() => undefined); await b.close(); await ff.close(); fs.rmSync(profile, { recursive: true, force: true }); },
    };
  } catch (error) {
    await bidi?.close();
    await ff.close();
    fs.rmSync(profile, { recursive: true, force: true });
    throw error;
  }
}

const driverFor = (v: FirefoxCostVariant, pwPrefs: FirefoxPrefs | null): Promise<Driver> => (v.startsWith('pw-') ? playwrightDriver(v as PlaywrightVariant) : bidiDriver(v as BidiVariant, pwPrefs));

// ── the blocks ──────────────────────────────────────────────────────────────────────────────────

export interface FirefoxCostBlock { variant: FirefoxCostVariant; block: number; cycles: number; cpu_s: number; wall_ms: number; processes_started: number; processes_seen: number; firefox: string }
export interface FirefoxCostVariantResult { variant: FirefoxCostVariant; cpu_s_per_cycle: number; vs_pw_trace: number | null; wall_ms_per_cycle: number; processes_per_cycle: number; blocks: number[] }
export interface FirefoxCostResults {
  at: string;
  firefox: string;
  cycles: number;
  blocks: number;
  load_before: number;
  load_after: number;
  variants: FirefoxCostVariantResult[];
  /** CPU-s per cycle that each change removes, from the medians (positive: the change costs that much) */
  shares: { what: string; from: FirefoxCostVariant; to: FirefoxCostVariant; cpu_s_per_cycle: number; of_pw_trace: number }[];
  raw: FirefoxCostBlock[];
}

export interface FirefoxCostOptions { cycles: number; blocks: number; variants?: readonly FirefoxCostVariant[]; progress?: (line: string) => void }

const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function runBlock(variant: FirefoxCostVariant, block: number, cycles: number, origin: string, saves: () => number, pwPrefs: FirefoxPrefs | null): Promise<FirefoxCostBlock> {
  const driver = await driverFor(variant, pwPrefs);
  try {
    await driver.cycle(origin); // warm-up: not counted
    const pidsBefore = new Set(processTree(driver.root).map((s) => s.pid));
    const started = new Set<number>();
    const savesBefore = saves();
    const cpu0 = treeCpuSeconds(driver.root);
    const t0 = performance.now();
    for (let i = 0; i < cycles; i++) {
      await driver.cycle(origin);
      for (const s of processTree(driver.root)) if (!pidsBefore.has(s.pid)) started.add(s.pid);
    }
    const wall = performance.now() - t0;
    const cpu = treeCpuSeconds(driver.root) - cpu0;
    if (saves() - savesBefore !== cycles) throw new Error(`${variant}: ${saves() - savesBefore} saves for ${cycles} cycles`);
    return { variant, block, cycles, cpu_s: r3(cpu), wall_ms: Math.round(wall), processes_started: started.size, processes_seen: pidsBefore.size + started.size, firefox: driver.version };
  } finally {
    await driver.close();
  }
}

export async function runFirefoxCost(o: FirefoxCostOptions): Promise<FirefoxCostResults> {
  const variants = [...(o.variants ?? firefoxCostVariants)];
  const pwPrefs = variants.includes('bidi-pw-profile') || variants.includes('bidi-pw-window') ? await playwrightFirefoxPrefs() : null;
  const server = await startPageServer();
  const raw: FirefoxCostBlock[] = [];
  const loadBefore = os.loadavg()[0]!;
  try {
    for (let b = 0; b < o.blocks; b++) {
      const order = variants.map((_, i) => variants[(i + b) % variants.length]!); // rotated block by block
      for (const v of order) {
        const r = await runBlock(v, b, o.cycles, server.origin, server.saves, pwPrefs);
        raw.push(r);
        o.progress?.(`firefox-cost block ${b + 1}/${o.blocks} ${v}: ${(r.cpu_s / r.cycles).toFixed(3)} CPU-s/cycle, ${Math.round(r.wall_ms / r.cycles)} ms/cycle, ${(r.processes_started / r.cycles).toFixed(2)} processes/cycle`);
      }
    }
  } finally {
    await server.close();
  }
  const per = (v: FirefoxCostVariant) => raw.filter((r) => r.variant === v);
  const cpuOf = (v: FirefoxCostVariant) => median(per(v).map((r) => r.cpu_s / r.cycles))!;
  const base = variants.includes('pw-trace') ? cpuOf('pw-trace') : null;
  const results: FirefoxCostVariantResult[] = variants.map((v) => ({
    variant: v,
    cpu_s_per_cycle: r3(cpuOf(v)),
    vs_pw_trace: base ? Math.round((cpuOf(v) / base - 1) * 1000) / 1000 : null,
    wall_ms_per_cycle: Math.round(median(per(v).map((r) => r.wall_ms / r.cycles))!),
    processes_per_cycle: Math.round(median(per(v).map((r) => r.processes_started / r.cycles))! * 100) / 100,
    blocks: per(v).map((r) => r3(r.cpu_s / r.cycles)),
  }));
  const shareDefs: [string, FirefoxCostVariant, FirefoxCostVariant][] = [
    ['the binding and init script a layers trace installs per context', 'pw-trace', 'pw-bare'],
    ['site isolation (fission.webContentIsolationStrategy 1 → 0), Playwright', 'pw-trace', 'pw-fission-off'],
    ['a window per page, against a tab in a host window, Playwright', 'pw-trace', 'pw-tabs'],
    ['site isolation, Playwright on tabs', 'pw-tabs', 'pw-tabs-fission-off'],
    ['a window per page against a tab, raw BiDi on Playwright\'s preferences', 'bidi-pw-window', 'bidi-pw-profile'],
    ["Playwright's own work per page on tabs (the window aside), on its own profile's preferences", 'pw-tabs', 'bidi-pw-profile'],
    ["Playwright's own work per context and page, on its own profile's preferences", 'pw-trace', 'bidi-pw-profile'],
    ["Playwright's profile preferences against the harness's, raw BiDi", 'bidi-pw-profile', 'bidi-listening'],
    ['the events, intercept and body collector Playwright subscribes at connect', 'bidi-listening', 'bidi-bare'],
    ['site isolation, raw BiDi', 'bidi-bare', 'bidi-fission-off'],
  ];
  const shares = shareDefs.filter(([, a, b]) => variants.includes(a) && variants.includes(b)).map(([what, from, to]) => ({
    what, from, to, cpu_s_per_cycle: r3(cpuOf(from) - cpuOf(to)), of_pw_trace: base ? Math.round(((cpuOf(from) - cpuOf(to)) / base) * 1000) / 1000 : NaN,
  }));
  return { at: new Date().toISOString(), firefox: [...new Set(raw.map((r) => r.firefox))].join(', '), cycles: o.cycles, blocks: o.blocks, load_before: loadBefore, load_after: os.loadavg()[0]!, variants: results, shares, raw };
}
