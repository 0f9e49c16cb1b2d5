// Prints make test's files in the order it runs them: those that share the machine first (Node's
// runner takes them several at a time), then those that run alone, each sorted by path. Their
// turns are test/helpers/turns.ts's; this order only keeps the sharing ones together, so that they
// overlap instead of each waiting for an alone neighbour.
import fs from 'node:fs';
import path from 'node:path';
import { sharesTheMachine } from './turns.ts';
import { isMain } from '../../core/entry.ts';

/** Every *.test.ts under `dir`, sharing files first, then alone ones, each sorted. */
export function testFiles(dir: string): string[] {
  const all = (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.test.ts')).map((f) => path.join(dir, f)).sort();
  return [...all.filter(sharesTheMachine), ...all.filter((f) => !sharesTheMachine(f))];
}

if (isMain(import.meta.url)) console.log(testFiles(process.argv[2] ?? 'test').join('\n'));
