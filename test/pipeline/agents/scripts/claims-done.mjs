// Claims done at once, touching nothing.
console.log('starting');
console.log(JSON.stringify({ done: true }));
