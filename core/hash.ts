import { createHash } from 'node:crypto';
import { hashFile } from 'hasha';

/** sha256 of a string or buffer, hex. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/** sha256 of a file's bytes, hex. */
export function sha256File(file: string): Promise<string> {
  return hashFile(file, { algorithm: 'sha256' });
}
