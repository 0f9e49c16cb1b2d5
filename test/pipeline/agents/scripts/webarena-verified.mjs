// Answers in WebArena-Verified's agent response, with the usage it reports: a mutation it could not do.
console.log(JSON.stringify({ task_type: 'mutate', status: 'NOT_FOUND', retrieved_data: null, usage: { input_tokens: 1200, output_tokens: 80, cost_usd: 0.0031 } }));
