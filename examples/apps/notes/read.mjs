// The postcondition command of app.json: prints the stored value of one field (`node read.mjs title`).
import { readStore } from './store.mjs';
const field = process.argv[2];
const value = readStore()[field];
if (value !== undefined && value !== null) process.stdout.write(`${value}\n`);
