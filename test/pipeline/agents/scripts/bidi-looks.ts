// Looks at the start page in Firefox over WebDriver BiDi (RSTACKBENCH_WS_ENDPOINT; run with
// `node --import tsx`) and reports, as its claim's message, what the page's own scripts can see:
// whether any extension API or harness global is visible to them, the scripts the document holds,
// and the viewport the harness set.
import { connectBiDi } from '../../../../pipeline/browser/bidi.ts';

const bidi = await connectBiDi(process.env.RSTACKBENCH_WS_ENDPOINT!);
await bidi.send('session.new', { capabilities: {} });
const { contexts } = await bidi.send<{ contexts: { context: string; url: string }[] }>('browsingContext.getTree', { maxDepth: 0 });
const seen = await bidi.send<{ result: { value: string } }>('script.evaluate', {
  expression: `JSON.stringify({
    browser: typeof browser, chrome: typeof chrome,
    globals: Object.getOwnPropertyNames(window).filter((k) => /rsb|rstack/i.test(k)),
    scripts: [...document.scripts].map((s) => s.src || 'inline'),
    width: innerWidth, height: innerHeight,
  })`,
  target: { context: contexts[0]!.context },
  awaitPromise: false,
});
await bidi.send('session.end');
await bidi.close();
console.log(JSON.stringify({ done: false, message: JSON.stringify({ tabs: contexts.length, url: contexts[0]!.url, page: JSON.parse(seen.result.value) }) }));
