// Echoes what it was given, as its claim's message: the task and which endpoints it received.
const task = JSON.parse(process.env.RSTACKBENCH_TASK);
const given = Object.keys(process.env).filter((k) => k.startsWith('RSTACK')).sort();
console.log(JSON.stringify({ done: false, message: JSON.stringify({ task, given }), actions: 0 }));
