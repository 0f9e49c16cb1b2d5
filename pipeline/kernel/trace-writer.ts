// The trace writer: append-only JSONL, one validated row a line, fsynced after every row.
//
// On open it looks at what an earlier attempt left: a torn last line (a crash mid-write) is cut
// off and moved to data/excluded/ with the reason; every complete row's key is remembered, so
// the run resumes after the last complete condition and never writes a condition twice.
import fs from 'node:fs';
import path from 'node:path';
import { paths, rel } from '../../core/paths.ts';
import { parseJsonl, toLine } from '../../core/jsonl.ts';
import { validate, isValid } from '../../core/validate.ts';
import { log } from '../../core/log.ts';
import { messages } from '../../core/messages.ts';
import { appendDurable, writeDurable } from './files.ts';
import { sha256 } from '../../core/hash.ts';
import { freeName, recordExclusion } from './exclude.ts';

import type { TraceRow } from '../../core/contracts.ts';

export type { TraceRow } from '../../core/contracts.ts';

/** A file a unit keeps beside its row (a trace's HAR, its store reads): written first, then named in the row with its sha256. */
export interface TraceFile { name: string; content: string | Buffer }

/** The folder of a run file's attachments, beside it: <run file without .jsonl>.files/<unit>/<name>. */
export const attachmentsDir = (runFile: string) => runFile.replace(/\.jsonl$/, '.files');
/** A unit key as a folder name (condition|policy → condition.policy). */
export const unitFolder = (key: string) => key.replace(/[^A-Za-z0-9._-]+/g, '.');

export interface WriterOptions<R extends TraceRow> {
  study: string;
  arm: string;
  runId: string;
  /** the unit of resumption: rows with the same key are the same trace */
  key: (row: R) => string;
  /** smoke runs are written straight to data/excluded/ */
  smoke?: boolean;
}

export class TraceWriter<R extends TraceRow> {
  readonly file: string;
  private readonly done = new Set<string>();
  private rowsWritten = 0;

  private constructor(readonly options: WriterOptions<R>) {
    const dir = options.smoke ? paths.excludedArm(options.study, options.arm) : paths.rawArm(options.study, options.arm);
    this.file = path.join(dir, `${options.runId}.jsonl`);
  }

  static open<R extends TraceRow>(options: WriterOptions<R>): TraceWriter<R> {
    const writer = new TraceWriter<R>(options);
    writer.recover();
    return writer;
  }

  /** Keys of the rows already on disk. */
  get completed(): ReadonlySet<string> { return this.done; }
  get existingRows(): number { return this.done.size; }
  get written(): number { return this.rowsWritten; }

  has(key: string): boolean { return this.done.has(key); }

  private recover(): void {
    if (!fs.existsSync(this.file)) return;
    const text = fs.readFileSync(this.file, 'utf8');
    let keep = text;
    const lastNewline = text.lastIndexOf('\n');
    const tail = text.slice(lastNewline + 1);
    if (tail.length > 0) {
      // no newline at the end: the last line is torn unless it happens to be a complete valid row
      let whole = false;
      try { whole = isValid('trace', JSON.parse(tail)); } catch { whole = false; }
      if (whole) {
        keep = text + '\n';
        appendDurable(this.file, '\n');
      } else {
        keep = text.slice(0, lastNewline + 1);
        const dir = paths.excludedArm(this.options.study, this.options.arm);
        const to = freeName(dir, `${this.options.runId}.torn`, '.txt');
        // kept first, then cut off: a failure between the two (a full disk) loses nothing
        writeDurable(to, tail);
        recordExclusion({ file: rel(to), from: rel(this.file), rows: 0, reason: 'torn last line: the run stopped mid-write; cut off on resume' });
        // cut, not rewritten: truncating needs no room on the disk, rewriting the rows would
        const fd = fs.openSync(this.file, 'r+');
        try {
          fs.ftruncateSync(fd, Buffer.byteLength(keep));
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        log({ kind: 'warn', message: messages.tornLineMoved(rel(this.file), rel(to)) });
      }
    }
    for (const row of parseJsonl<R>(keep, rel(this.file), { schema: 'trace' })) {
      const key = this.options.key(row);
      if (this.done.has(key)) throw new Error(`${rel(this.file)}: duplicate trace ${key}`);
      this.done.add(key);
    }
  }

  /**
   * Validates and appends one row, fsynced before it returns. A row for a done key is an error.
   * The unit's files are written first (durably), and the row names each with its path (relative to
   * the attachments folder), sha256 and size: a row never names a file that is not on disk.
   */
  append(withFiles: R & { files?: TraceFile[] }): void {
    const { files, ...rest } = withFiles;
    let row = rest as unknown as R;
    if (files?.length) {
      // a name is a file in the unit's folder, never a path out of it: checked before anything is written
      const bad = files.find((f) => !/^[A-Za-z0-9_-][A-Za-z0-9._-]*$/.test(f.name));
      if (bad) throw new Error(`${rel(this.file)}: a trace file is named ${JSON.stringify(bad.name)}: letters, digits, . _ - only, not starting with a dot`);
      const unit = unitFolder(this.options.key(row));
      const attachments = files.map((f) => {
        const content = Buffer.isBuffer(f.content) ? f.content : Buffer.from(f.content, 'utf8');
        writeDurable(path.join(attachmentsDir(this.file), unit, f.name), content);
        return { name: f.name, path: `${unit}/${f.name}`, sha256: sha256(content), bytes: content.length };
      });
      row = { ...row, attachments } as R;
    }
    validate('trace', row, { file: rel(this.file), line: this.done.size + 1 });
    const key = this.options.key(row);
    if (this.done.has(key)) throw new Error(`${rel(this.file)}: trace ${key} was already written`);
    const first = !fs.existsSync(this.file);
    appendDurable(this.file, toLine(row));
    // a smoke run lives in data/excluded/ from its first row; say why it is there once the file exists
    // (a run whose every unit failed has no file, and REASONS.jsonl never names one that is not there)
    if (this.options.smoke && first) recordExclusion({ file: rel(this.file), from: null, reason: 'smoke run while developing: not registered evidence' });
    this.done.add(key);
    this.rowsWritten++;
  }
}
