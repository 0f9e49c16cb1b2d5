// What the page shows that the `layers` score reads (scoring.ts: Observed), watched from inside
// every document before its own scripts run, in either browser:
//   - the first time a success indication ([role=status][data-state=success]) is visible;
//   - the moment the app's surface replaces its "Loading…" line (the Access fault's moment).
// Each is stamped on the wall clock (epoch ms) and handed to a report call that the browser side
// supplies: a Playwright binding (condition.ts), or the observation extension's message to the
// harness (pipeline/agents/observer-extension.ts). The script is a string, not a function: tsx's
// name-keeping helpers do not exist inside the page.

export const SUCCESS_INDICATION = '[role=status][data-state=success]';

/**
 * The watch, given the two report calls as expressions of `t` (epoch ms). The surface has appeared
 * once #app is there and #loading is gone. The script itself holds no comment: it is the same in
 * every condition, and names nothing of them.
 */
export function pageWatch(report: { successShown: (t: string) => string; revealed: (t: string) => string }): string {
  return `
let revealed = false;
new MutationObserver(() => {
  const el = document.querySelector(${JSON.stringify(SUCCESS_INDICATION)});
  if (el && el.checkVisibility()) ${report.successShown('performance.timeOrigin + performance.now()')};
  if (!revealed && document.getElementById('app') && !document.getElementById('loading')) {
    revealed = true;
    ${report.revealed('performance.timeOrigin + performance.now()')};
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;
}

/** A real application's success notice: elements matching `selector` whose text contains `text`. */
export interface Notice { selector: string; text: string }

/**
 * The watch on a real application's page (the real-applications arm): the first time the task
 * family's success notice is visible, and each document's load event (a write that navigates is
 * followed by the document it leads to). The same script for every condition of a family; it names
 * no layer, severity or fault.
 */
export function noticeWatch(notice: Notice, report: { successShown: (t: string) => string; loaded: (t: string) => string }): string {
  return `
addEventListener('load', () => { ${report.loaded('performance.timeOrigin + performance.now()')}; });
new MutationObserver(() => {
  for (const el of document.querySelectorAll(${JSON.stringify(notice.selector)})) {
    if ((el.textContent || '').replace(/\\s+/g, ' ').includes(${JSON.stringify(notice.text)}) && el.checkVisibility()) {
      ${report.successShown('performance.timeOrigin + performance.now()')};
      return;
    }
  }
}).observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
`;
}
