// Never gives a claim: it waits, and its child waits too (both must be killed by the timeout).
import { spawn } from 'node:child_process';
spawn(process.execPath, ['-e', 'setTimeout(() => {}, 600000)'], { stdio: 'inherit' });
setTimeout(() => console.log(JSON.stringify({ done: true })), 600_000);
