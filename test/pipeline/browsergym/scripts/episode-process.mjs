// A stand-in for one BrowserGym episode's process, speaking the control protocol the suite's task
// speaks (browsergym/src/browsergym/rstackbench/control.py), without Python or a browser:
//   node episode-process.mjs BEHAVIOUR BROWSER_VERSION
//   ok               setup, opened, a success moment, a claim of done; prints the score it was answered,
//                    then the loop's result (reward = the score's VTS)
//   step-limit       setup, opened, no claim: the task's teardown at the limit of 10 steps (not done, step_limit)
//   wrong-task       asks for another condition at setup
//   exit-early       exits 3 before setup
//   crash-after-open exits 4 after its page is open
//   hang             opens its page and never claims
//   fail-after-claim claims, then exits 5 (a loop that raised after the task's end)
const [behaviour, version] = process.argv.slice(2);
const base = process.env.RSTACKBENCH_CONTROL_URL;
const task = process.env.RSTACKBENCH_BROWSERGYM_TASK;
const post = async (step, body) => {
  const res = await fetch(`${base}/${step}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
};
if (behaviour === 'exit-early') process.exit(3);
console.log(JSON.stringify({ control: base }));
const setup = await post('setup', { task: behaviour === 'wrong-task' ? 'rstackbench.cards-baseline-02' : task, browser_version: version });
console.log(JSON.stringify({ setup }));
if (setup.status !== 200) process.exit(2);
await post('opened', { url: setup.body.start_url });
if (behaviour === 'crash-after-open') process.exit(4);
if (behaviour === 'hang') setInterval(() => {}, 1000); // alive until it is killed
if (behaviour === 'hang') await new Promise(() => {});
await post('moment', { kind: 'success_shown', epoch_ms: performance.timeOrigin + performance.now() });
if (behaviour === 'step-limit') {
  const end = await post('end', { claim: { done: false, message: 'no message to the user: the episode ended at its step limit (10 steps)' }, actions: 10, ended: 'step_limit', max_steps: 10 });
  console.log(JSON.stringify({ end }));
  await post('result', { reward: end.body.vts ? 1 : 0, steps: 10, terminated: false, truncated: true });
  process.exit(0);
}
const end = await post('end', { claim: { done: true, message: 'saved' }, actions: 3, ended: 'claim', max_steps: 10 });
console.log(JSON.stringify({ end }));
if (behaviour === 'ok') await post('result', { reward: end.body.vts ? 1 : 0, steps: 3, terminated: true, truncated: false });
process.exit(behaviour === 'fail-after-claim' ? 5 : 0);
