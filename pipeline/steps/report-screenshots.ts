// The screenshots of docs/report.md, taken in Debian's Chromium from a written report/: the
// opening page's first scorecard, and the timeline of the first false completion of one evidence
// policy (found the way a reader finds it: the trace list filtered to it, its first trace opened).
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser } from '../browser/launch.ts';

export async function reportScreenshots(reportDir: string, outDir: string, policy = 'optimistic-dom'): Promise<string[]> {
  const { browser } = await launchBrowser('chromium', null);
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const url = pathToFileURL(path.join(reportDir, 'index.html')).href;
    await page.goto(url);
    await page.waitForSelector('section.scorecard');
    const scorecard = path.join(outDir, 'scorecard.png');
    await page.screenshot({ path: scorecard });
    await page.goto(`${url}#/traces?study=evidence&outcome=fc&policy=${encodeURIComponent(policy)}`);
    await page.locator('#trace-table tbody tr a.open').first().click();
    await page.waitForSelector('#timeline svg');
    await page.selectOption('#tl-window', 'action');
    const timeline = path.join(outDir, 'timeline.png');
    await page.screenshot({ path: timeline });
    return [scorecard, timeline];
  } finally {
    await browser.close();
  }
}
