// Crashes after printing what looks like a claim.
console.log(JSON.stringify({ done: true }));
console.error('agent: something went wrong');
process.exit(3);
