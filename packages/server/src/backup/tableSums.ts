/**
 * What a backup holds, table by table: its row count and, when asked, a checksum of its rows (md5
 * of the sorted md5s of each row's text). Written into the backup's manifest at the moment of the
 * copy, and compared by `npm run restore` after loading it, so a restore that lost a record or a
 * stored signal fails instead of starting.
 */
export interface TableSum {
  rows: number;
  /** Present when the backup was made with checksums. */
  md5?: string;
}

export type TableSums = Record<string, TableSum>;

type Query = (sql: string) => Promise<{ rows: Record<string, unknown>[] }>;

const quote = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/** Every ordinary table outside PostgreSQL's own schemas, as `schema.table`. */
export async function tableSums(query: Query, { checksums }: { checksums: boolean }): Promise<TableSums> {
  const { rows: tables } = await query(
    `select table_schema as schema, table_name as name from information_schema.tables
      where table_type = 'BASE TABLE' and table_schema not in ('pg_catalog', 'information_schema') and table_schema not like 'pg\\_%'
      order by 1, 2`,
  );
  const sums: TableSums = {};
  for (const table of tables) {
    const name = `${quote(String(table.schema))}.${quote(String(table.name))}`;
    const select = checksums
      ? `select count(*)::text as rows, md5(coalesce(string_agg(h, '' order by h), '')) as md5 from (select md5(t::text) as h from ${name} t) s`
      : `select count(*)::text as rows from ${name}`;
    const [row] = (await query(select)).rows;
    sums[`${String(table.schema)}.${String(table.name)}`] = { rows: Number(row?.rows ?? 0), ...(checksums ? { md5: String(row?.md5) } : {}) };
  }
  return sums;
}

/** The tables whose rows differ between a backup's manifest and a restored database, described. */
export function differences(expected: TableSums, actual: TableSums): string[] {
  const problems: string[] = [];
  for (const [table, sum] of Object.entries(expected)) {
    const found = actual[table];
    if (found === undefined) problems.push(`${table}: missing`);
    else if (found.rows !== sum.rows) problems.push(`${table}: ${found.rows} rows, the backup has ${sum.rows}`);
    else if (sum.md5 !== undefined && found.md5 !== sum.md5) problems.push(`${table}: rows differ from the backup's`);
  }
  return problems;
}
