// Whether a module is the script node was started with (its CLI runs then, not when it is imported).
// Compared as file URLs: `file://${process.argv[1]}` is not one when the path holds a space, a % or
// a #, or reaches the file through a symlink (node's import.meta.url is the real path's URL).
import fs from 'node:fs';
import { pathToFileURL } from 'node:url';

export function isMain(moduleUrl: string, argv1: string | undefined = process.argv[1]): boolean {
  if (argv1 === undefined) return false;
  let real = argv1;
  try { real = fs.realpathSync(argv1); } catch { /* not a file on disk: compare the path as given */ }
  return pathToFileURL(real).href === moduleUrl;
}
