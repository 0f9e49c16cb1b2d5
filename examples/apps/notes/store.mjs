// The notes app's store: one JSON file, written whole (a rename, so a reader never sees half of it).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const storeFile = path.resolve(process.env.NOTES_STORE ?? path.join(path.dirname(fileURLToPath(import.meta.url)), 'notes.json'));
export const readStore = () => JSON.parse(fs.readFileSync(storeFile, 'utf8'));
export function writeStore(value) {
  fs.writeFileSync(`${storeFile}.tmp`, JSON.stringify(value));
  fs.renameSync(`${storeFile}.tmp`, storeFile);
}
