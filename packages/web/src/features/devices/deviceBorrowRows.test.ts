import { describe, expect, it } from 'vitest';
import type { RecordOf } from '../../lib/documents/records.ts';
import { buildBorrowRows, filterBorrowRows, groupByHolder, isLendable, serialOfBorrowPath } from './deviceBorrowRows.ts';

const common = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
type Device = RecordOf<'devices'>;
const device = (serial: string, fields: Partial<Device> = {}): Device => ({
  documentReferenceId: serial,
  documentPath: `devices/${serial}`,
  ...common,
  deviceTypeId: 'nemuri-bed',
  status: 'stock',
  ...fields,
});
const borrow = (serial: string, id: string, toDomainId: string, from: string, returnedAt: string | null): RecordOf<'devices/borrows'> => ({
  documentReferenceId: id,
  documentPath: `devices/${serial}/borrows/${id}`,
  ...common,
  toDomainId,
  from,
  returnedAt,
  by: 'u1',
});
const domain = (id: string, name: string): RecordOf<'domains'> =>
  ({ documentReferenceId: id, documentPath: `domains/${id}`, ...common, name, kind: 'facility' }) as RecordOf<'domains'>;
const types: RecordOf<'deviceTypes'>[] = [
  { documentReferenceId: 'nemuri-bed', documentPath: 'deviceTypes/nemuri-bed', ...common, name: 'ベッドセンサー', model: 'NB-1' },
];

describe('lending rows', () => {
  const devices = [
    device('NM-0002', { status: 'lent', domainId: 'b' }),
    device('NM-0001', { status: 'in_use', domainId: 'a' }),
    device('NM-0003'),
    device('NM-0004', { status: 'repair' }),
  ];
  const borrows = [
    borrow('NM-0002', 'x1', 'a', '2026-01-01T00:00:00Z', '2026-02-01T00:00:00Z'),
    borrow('NM-0002', 'x2', 'b', '2026-03-01T00:00:00Z', null),
    borrow('NM-0001', 'y1', 'a', '2026-01-05T00:00:00Z', null),
    borrow('NM-0003', 'z1', 'b', '2025-05-01T00:00:00Z', '2025-06-01T00:00:00Z'),
  ];
  const rows = buildBorrowRows(devices, borrows, [domain('a', 'さくら苑'), domain('b', 'もみじ荘')], types);

  it('finds the serial of a borrow path', () => {
    expect(serialOfBorrowPath('devices/NM-1/borrows/b1')).toBe('NM-1');
    expect(serialOfBorrowPath('rooms/r1/sleeps/2026-01-01')).toBeNull();
  });

  it('names the holder, the open borrow and the history newest first', () => {
    expect(rows.map((row) => [row.serial, row.holderName, row.open?.id ?? null, row.history.map((entry) => entry.id)])).toEqual([
      ['NM-0001', 'さくら苑', 'y1', ['y1']],
      ['NM-0002', 'もみじ荘', 'x2', ['x2', 'x1']],
      ['NM-0003', null, null, ['z1']],
      ['NM-0004', null, null, []],
    ]);
    expect(rows.filter(isLendable).map((row) => row.serial)).toEqual(['NM-0003']);
  });

  it('orders borrows starting the same day by when they were recorded', () => {
    const same = '2026-11-23T00:00:00+09:00';
    const earlier = { ...borrow('NM-9', 'zz-first', 'a', same, '2026-11-23T05:00:00Z'), createdAt: '2026-11-23T01:00:00.000Z' };
    const later = { ...borrow('NM-9', 'aa-second', 'b', same, null), createdAt: '2026-11-23T06:00:00.000Z' };
    const [row] = buildBorrowRows([device('NM-9', { status: 'lent', domainId: 'b' })], [earlier, later], [], types);
    expect(row?.history.map((entry) => entry.id)).toEqual(['aa-second', 'zz-first']);
  });

  it('filters by status, holder, type and search', () => {
    const base = { search: '', status: null, domainId: null, typeId: null };
    expect(filterBorrowRows(rows, { ...base, status: 'lent' }).map((row) => row.serial)).toEqual(['NM-0002']);
    expect(filterBorrowRows(rows, { ...base, domainId: 'a' }).map((row) => row.serial)).toEqual(['NM-0001']);
    expect(filterBorrowRows(rows, { ...base, typeId: 'other' })).toEqual([]);
    expect(filterBorrowRows(rows, { ...base, search: 'もみじ' }).map((row) => row.serial)).toEqual(['NM-0002']);
  });

  it('groups the devices out by holder', () => {
    expect(groupByHolder(rows).map((group) => [group.domainName, group.rows.map((row) => row.serial)])).toEqual([
      ['さくら苑', ['NM-0001']],
      ['もみじ荘', ['NM-0002']],
    ]);
  });
});
