// Prints the built HTML to PDF with Chromium's own print-to-PDF (Debian's chromium through
// playwright-core), with an outline from the headings, so each table is a bookmark.
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../pipeline/browser/launch.ts';

export async function printPdf(htmlFile: string, pdfFile: string): Promise<void> {
  const { browser } = await launchBrowser('chromium');
  try {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(htmlFile).href, { waitUntil: 'load' });
    await page.pdf({ path: pdfFile, format: 'A4', printBackground: true, outline: true, tagged: true, margin: { top: '18mm', bottom: '18mm', left: '16mm', right: '16mm' } });
  } finally {
    await browser.close();
  }
}
