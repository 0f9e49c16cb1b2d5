// Does a configuration-card task in Firefox the way a user would, over WebDriver BiDi with a raw
// client of its own (RSTACKBENCH_WS_ENDPOINT; run with `node --import tsx`): a new session, the
// first tab, the card whose heading is the project, Mode chosen, a real pointer click on Save
// change, until the card says Saved. Ends its session and leaves the browser open.
import { connectBiDi } from '../../../../pipeline/browser/bidi.ts';

const { instruction } = JSON.parse(process.env.RSTACKBENCH_TASK!) as { instruction: string };
const [, project, mode] = instruction.match(/project "([^"]+)", set Mode to "([^"]+)"/)!;
const bidi = await connectBiDi(process.env.RSTACKBENCH_WS_ENDPOINT!);
await bidi.send('session.new', { capabilities: {} });
const { contexts } = await bidi.send<{ contexts: { context: string }[] }>('browsingContext.getTree', { maxDepth: 0 });
const target = { context: contexts[0]!.context };
const inCard = (body: string) => `(() => { const card = [...document.querySelectorAll('section.card')].find((c) => c.querySelector('h2')?.textContent === ${JSON.stringify(project)}); ${body} })()`;
const evaluate = async (expression: string) =>
  (await bidi.send<{ result: { value?: unknown; sharedId?: string } }>('script.evaluate', { expression, target, awaitPromise: false, resultOwnership: 'root' })).result;

await evaluate(inCard(`const select = card.querySelector('select'); select.value = ${JSON.stringify(mode)}; select.dispatchEvent(new Event('change', { bubbles: true }));`));
const button = await evaluate(inCard(`return [...card.querySelectorAll('button')].find((b) => b.textContent === 'Save change');`));
await bidi.send('input.performActions', {
  context: target.context,
  actions: [{ type: 'pointer', id: 'mouse', actions: [
    { type: 'pointerMove', x: 0, y: 0, origin: { type: 'element', element: { sharedId: button.sharedId } } },
    { type: 'pointerDown', button: 0 },
    { type: 'pointerUp', button: 0 },
  ] }],
});
for (let i = 0; i < 100 && (await evaluate(inCard(`return card.querySelector('[role=status]').textContent;`))).value !== 'Saved'; i++) await new Promise((r) => setTimeout(r, 50));
await bidi.send('session.end');
await bidi.close();
console.log(JSON.stringify({ done: true, actions: 2 }));
