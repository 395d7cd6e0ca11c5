import { describe, expect, it } from 'vitest';
import type { RecordOf } from '../../lib/documents/records.ts';
import type { Device } from './api/deviceConfigApi.ts';
import { buildRows, filterRows, ONLINE_WINDOW_MS, serialFromCode, serialUrl } from './deviceConfigRows.ts';
import { serialNumberTarget } from './deviceConfigSerialTarget.ts';

const common = { createdAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z' };
const device = (serial: string, fields: Partial<Device> = {}): Device => ({
  documentReferenceId: serial,
  documentPath: `devices/${serial}`,
  ...common,
  deviceTypeId: 'nemuri-bed',
  status: 'in_use',
  ...fields,
});
const room = (id: string, name: string, deviceSerial: string | null): RecordOf<'rooms'> => ({
  documentReferenceId: id,
  documentPath: `rooms/${id}`,
  ...common,
  domainId: 'd',
  name,
  deviceSerial,
});
const types: RecordOf<'deviceTypes'>[] = [
  { documentReferenceId: 'nemuri-bed', documentPath: 'deviceTypes/nemuri-bed', ...common, name: 'ベッドセンサー', model: 'NB-1' },
];

describe('device rows', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  const devices = [
    device('NM-0010', { lastSeenAt: new Date(now - 10_000).toISOString(), battery: 80 }),
    device('NM-0002', { lastSeenAt: new Date(now - ONLINE_WINDOW_MS - 1).toISOString(), battery: 20, roomId: 'r2' }),
    device('NM-0003', { status: 'lent', firmwareVersion: '1.4.1' }),
  ];
  const rooms = [room('r1', '101号室', 'NM-0010'), room('r2', '102号室', 'NM-0002')];
  const rows = buildRows(devices, types, rooms, now);

  it('names the type and the room (by roomId or by the room holding the serial) and says who is online', () => {
    expect(rows.map((row) => [row.serial, row.typeName, row.room?.name ?? null, row.connection])).toEqual([
      ['NM-0010', 'ベッドセンサー', '101号室', 'online'],
      ['NM-0002', 'ベッドセンサー', '102号室', 'offline'],
      ['NM-0003', 'ベッドセンサー', null, 'offline'],
    ]);
  });

  it('filters, searches and sorts', () => {
    const base = { search: '', status: null, connection: null, sort: 'serial' } as const;
    expect(filterRows(rows, base).map((row) => row.serial)).toEqual(['NM-0002', 'NM-0003', 'NM-0010']);
    expect(filterRows(rows, { ...base, sort: 'battery' }).map((row) => row.serial)).toEqual(['NM-0002', 'NM-0010', 'NM-0003']);
    expect(filterRows(rows, { ...base, sort: 'lastSeen' }).map((row) => row.serial)).toEqual(['NM-0010', 'NM-0002', 'NM-0003']);
    expect(filterRows(rows, { ...base, connection: 'online' }).map((row) => row.serial)).toEqual(['NM-0010']);
    expect(filterRows(rows, { ...base, status: 'lent' }).map((row) => row.serial)).toEqual(['NM-0003']);
    expect(filterRows(rows, { ...base, search: '102号' }).map((row) => row.serial)).toEqual(['NM-0002']);
    expect(filterRows(rows, { ...base, search: '1.4.1' }).map((row) => row.serial)).toEqual(['NM-0003']);
  });
});

describe('QR codes and /sn/', () => {
  it('reads a serial from a label URL of any origin, or a bare serial', () => {
    expect(serialFromCode(serialUrl('https://nemuri.example', 'NM-0001'))).toBe('NM-0001');
    expect(serialFromCode('http://127.0.0.1:3000/sn/NM-0001?x=1')).toBe('NM-0001');
    expect(serialFromCode(' NM-0042 ')).toBe('NM-0042');
    expect(serialFromCode('https://example.com/other')).toBeNull();
    expect(serialFromCode('/sn/bad%2Fserial')).toBeNull();
  });

  it('goes to the room, else the master page for developers, else registration', () => {
    expect(serialNumberTarget('NM-0001', 2, 'demo-a-101')).toEqual({ kind: 'go', to: '/room/demo-a-101/sleep' });
    expect(serialNumberTarget('NM-0001', 100, null)).toEqual({ kind: 'go', to: '/master/device/NM-0001' });
    expect(serialNumberTarget('NM-0001', 3, null)).toEqual({ kind: 'go', to: '/device-config/card?register=NM-0001' });
    expect(serialNumberTarget('bad serial', 3, null)).toEqual({ kind: 'invalid' });
    expect(serialNumberTarget('NM-0001', 1, null)).toEqual({ kind: 'notVisible' });
    expect(serialNumberTarget('NM-0001', 1, 'demo-h-1')).toEqual({ kind: 'go', to: '/room/demo-h-1/sleep' });
  });
});
