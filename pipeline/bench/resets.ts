// make bench ARGS=--resets: what the real-applications arm pays per condition to start from the
// seeded state (issue 36): each application's reset() (every table restored from its snapshot, its
// caches with them) timed n times, with a write in between so that each restore has something to
// undo. Medians and the spread, since the machine is shared.
import { performance } from 'node:perf_hooks';
import { startSites } from '../../fixtures/sites.ts';
import { layersWordpressApp } from '../../fixtures/wordpress/layers-site.ts';
import { mediawikiApp } from '../../fixtures/mediawiki/site.ts';
import type { RealApp } from '../../fixtures/real-app.ts';
import { median } from '../../core/stats.ts';

export interface ResetBench {
  at: string;
  n: number;
  apps: { app: RealApp['name']; median_ms: number; min_ms: number; max_ms: number }[];
}

const round1 = (x: number) => Math.round(x * 10) / 10;

export async function runResetBench(n: number): Promise<ResetBench> {
  const sites = await startSites(['layers-wordpress', 'mediawiki']);
  try {
    const apps: RealApp[] = [layersWordpressApp(), mediawikiApp()];
    const out: ResetBench['apps'] = [];
    for (const app of apps) {
      const times: number[] = [];
      for (let i = 0; i < n; i++) {
        // something for the restore to undo: a page load writes the session's last-seen and caches
        await fetch(app.origin + '/').then((r) => r.arrayBuffer());
        const t0 = performance.now();
        await app.reset();
        times.push(performance.now() - t0);
      }
      out.push({ app: app.name, median_ms: round1(median(times)!), min_ms: round1(Math.min(...times)), max_ms: round1(Math.max(...times)) });
    }
    return { at: new Date().toISOString(), n, apps: out };
  } finally {
    await sites.stop();
  }
}
