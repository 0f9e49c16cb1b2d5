// Ends with a line that is not a claim.
console.log(JSON.stringify({ done: true }));
console.log('I think I am done');
