// make report: report/ from data/raw, data/excluded, data/tasks and analysis/out (report-src/build.ts,
// whose flow is drawn at its top). Prints the path to open, its size and how long it took.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from '../../core/cli.ts';
import { rel } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { buildReport } from '../../report-src/build.ts';
import { reportScreenshots } from './report-screenshots.ts';

await main({
  name: 'report',
  summary: 'write report/: scorecards and every trace\'s timeline, one static site that opens from the file system (file://), from data/raw and analysis/out',
  usage: 'make report [RUN=runs/<verb>-<name>] [ARGS="--out DIR" | "--screenshots docs/report"]',
  options: {
    run: { type: 'string', help: 'a run of your own agent or app (runs/<verb>-<name>, as its last line says): shown first, beside the registered reference policies and agents on the same conditions; nothing of the record changes' },
    out: { type: 'string', help: 'the folder to write (default report/ in the repository; it is emptied first)' },
    screenshots: { type: 'string', help: "then take docs/report.md's screenshots (scorecard.png, timeline.png) in Chromium into this folder" },
  },
  async run(values) {
    const built = await buildReport({ ...(values.out ? { outDir: path.resolve(values.out) } : {}), ...(values.run ? { yourRun: path.resolve(values.run) } : {}) });
    const where = rel(built.dir);
    log({ kind: 'info', message: messages.reportWrote(where.startsWith('..') ? built.dir : where, built) });
    if (values.screenshots) {
      fs.mkdirSync(path.resolve(values.screenshots), { recursive: true });
      for (const f of await reportScreenshots(built.dir, path.resolve(values.screenshots))) log({ kind: 'info', message: `screenshot ${rel(f)}` });
    }
    // stdout: the page to open, alone (make reproduce prints it)
    process.stdout.write(pathToFileURL(path.join(built.dir, 'index.html')).href + '\n');
  },
});
