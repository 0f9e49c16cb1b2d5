// make paper: paper/paper.html bound to analysis/out and figures/out (paper/build.ts), written to
// paper/build/paper.html, then printed to paper/build/paper.pdf by Chromium's own print-to-PDF,
// with an outline from the headings so that each table is a bookmark. The browser is the
// pipeline's (pipeline/browser/): the paper/ folder only reads generated files.
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { main } from '../../core/cli.ts';
import { paths, rel } from '../../core/paths.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { buildPaper, writePaperHtml } from '../../paper/build.ts';
import { launchBrowser } from '../browser/launch.ts';
import { isMain } from '../../core/entry.ts';

export async function printPdf(htmlFile: string, pdfFile: string): Promise<void> {
  // printed from local files (file://): always a local browser, whatever BROWSER_WS_ENDPOINT says
  const { browser } = await launchBrowser('chromium', null);
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(htmlFile).href, { waitUntil: 'load' });
    await page.pdf({ path: pdfFile, format: 'A4', printBackground: true, outline: true, tagged: true, margin: { top: '18mm', bottom: '18mm', left: '16mm', right: '16mm' } });
  } finally {
    await browser.close();
  }
}

if (isMain(import.meta.url)) await main({
  name: 'paper',
  summary: 'build paper/build/paper.html and paper.pdf from paper/paper.html, analysis/out and figures/out',
  options: { 'no-pdf': { type: 'boolean', default: false, help: 'write the HTML only (no browser needed)' } },
  async run(values) {
    const built = buildPaper();
    const html = writePaperHtml(built);
    const written = [rel(html)];
    if (!values['no-pdf']) {
      const pdf = path.join(paths.paperBuild(), 'paper.pdf');
      await printPdf(html, pdf);
      written.push(rel(pdf));
    }
    for (const w of built.warnings) log({ kind: 'warn', message: w });
    const empty = built.tables.filter((t) => t.rows === 0);
    log({ kind: 'info', message: `${messages.paperWrote(written)}: ${built.tables.length} tables (${empty.length} without data yet), ${built.figures.length} figures` });
    // which tables are empty, and why: a reader should not have to guess (the pilot, say, not yet run)
    for (const t of empty) log({ kind: 'info', message: `  no data: ${t.name} — ${t.empty}` });
  },
});
