// The SQL side of the reanalysis: one in-memory DuckDB, single-threaded (so floating-point sums run
// in one order and the output bytes never change), the raw files loaded once (load_trace.sql with
// declared column types, then load_<study>.sql), then each query run against the loaded tables.
import fs from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { paths } from '../core/paths.ts';
import { RStackError } from '../core/errors.ts';
import type { Cell, TableRow } from './tables.ts';
import { columnsLiteral } from './columns.ts';

export interface SqlFiles { layers: string[]; evidence: string[] }

const sqlString = (s: string) => `'${s.replaceAll("'", "''")}'`;
const sqlList = (files: string[]) => `[${files.map(sqlString).join(', ')}]::VARCHAR[]`;

/** DuckDB hands back BIGINT as bigint and DECIMAL as objects; the tables hold plain JSON values. */
function plain(value: unknown): Cell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean') return value;
  throw new Error(`unexpected value from DuckDB: ${String(value)}`);
}

export class SqlSession {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connection: DuckDBConnection,
    readonly queriesDir: string,
  ) {}

  /** Opens DuckDB and loads the given raw files; a study without files reads empty.jsonl. */
  static async open(files: SqlFiles, queriesDir = paths.queries()): Promise<SqlSession> {
    const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
    const connection = await instance.connect();
    const session = new SqlSession(instance, connection, queriesDir);
    const empty = path.join(queriesDir, 'empty.jsonl');
    try {
      for (const study of ['layers', 'evidence'] as const) {
        const list = files[study].length ? files[study] : [empty];
        await connection.run(`SET VARIABLE ${study}_files = ${sqlList(list)}`);
        await connection.run(session.sql('load_trace').replaceAll('{{study}}', study).replace('{{trace columns}}', columnsLiteral(study)));
        await connection.run(session.sql(`load_${study}`));
      }
      // after the rows: the table macros (layers_pairs, verdict_pairs) read the loaded tables
      await connection.run(session.sql('macros'));
    } catch (cause) {
      session.close();
      throw new RStackError(`DuckDB could not load the raw rows: ${(cause as Error).message}`, { cause });
    }
    return session;
  }

  sql(name: string): string {
    return fs.readFileSync(path.join(this.queriesDir, `${name}.sql`), 'utf8');
  }

  /** Runs analysis/queries/<name>.sql and returns its rows as plain values. */
  async query(name: string): Promise<TableRow[]> {
    let reader;
    try {
      reader = await this.connection.runAndReadAll(this.sql(name));
    } catch (cause) {
      throw new RStackError(`query ${name}.sql failed: ${(cause as Error).message}`, { cause });
    }
    return reader.getRowObjects().map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, plain(v)])));
  }

  close(): void {
    this.connection.closeSync();
    this.instance.closeSync();
  }
}
