import fs from 'node:fs';
import path from 'node:path';

/** Every regular file below dir (recursively), sorted, as absolute paths; [] when dir is missing. */
export function listFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) out.push(p);
    }
  };
  walk(dir);
  return out.sort();
}

/** How many rows a JSONL file holds: its non-empty lines that end with a newline (a last line without
 *  one is torn, a write that stopped midway, and not a row); 0 when it is missing. */
export function countRows(file: string): number {
  if (!fs.existsSync(file)) return 0;
  const text = fs.readFileSync(file, 'utf8');
  return text.slice(0, text.lastIndexOf('\n') + 1).split('\n').filter(Boolean).length;
}
