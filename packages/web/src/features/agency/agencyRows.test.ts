import { describe, expect, it } from 'vitest';
import type { DeviceRow } from './api/agencyApi.ts';
import { filterDevices, previousMonth, sortBills } from './agencyRows.ts';

const device = (serial: string, fields: Partial<DeviceRow> = {}): DeviceRow => ({
  serial,
  deviceTypeId: 'nemuri-chest',
  typeName: 'ねむりチェスト',
  status: 'in_use',
  holderDomainId: 'd1',
  holderName: 'さくら苑',
  partnerId: 'p1',
  roomId: null,
  roomName: '101号室',
  lastSeenAt: null,
  online: false,
  ...fields,
});

describe('agency rows', () => {
  const rows = [
    device('NM-1'),
    device('NM-2', { status: 'stock', holderName: null, partnerId: null, roomName: null, online: true }),
    device('NM-3', { holderName: '山田家', partnerId: 'p2', roomName: null }),
  ];

  it('filters devices by search, status, partner and online state together', () => {
    const none = { search: '', status: null, partnerId: null, online: null };
    expect(filterDevices(rows, none)).toHaveLength(3);
    expect(filterDevices(rows, { ...none, search: '山田' }).map((row) => row.serial)).toEqual(['NM-3']);
    expect(filterDevices(rows, { ...none, search: '101' }).map((row) => row.serial)).toEqual(['NM-1']);
    expect(filterDevices(rows, { ...none, status: 'stock' }).map((row) => row.serial)).toEqual(['NM-2']);
    expect(filterDevices(rows, { ...none, partnerId: 'p1' }).map((row) => row.serial)).toEqual(['NM-1']);
    expect(filterDevices(rows, { ...none, online: 'online' }).map((row) => row.serial)).toEqual(['NM-2']);
    expect(filterDevices(rows, { ...none, online: 'offline', search: 'nm-1' }).map((row) => row.serial)).toEqual(['NM-1']);
  });

  it('the previous month follows the Japan calendar and wraps the year', () => {
    expect(previousMonth(new Date('2026-11-23T03:00:00Z'))).toBe('2026-10');
    expect(previousMonth(new Date('2026-12-31T15:30:00Z'))).toBe('2026-12');
    expect(previousMonth(new Date('2027-01-10T00:00:00Z'))).toBe('2026-12');
  });

  it('sorts bills newest month first, then by partner', () => {
    const bill = (month: string, partnerName: string) => ({
      documentReferenceId: `${partnerName}-${month}`,
      documentPath: `domains/demo-agency/bills/${partnerName}-${month}`,
      partnerDomainId: partnerName,
      partnerName,
      month,
      status: 'draft' as const,
    });
    expect(sortBills([bill('2026-09', 'い'), bill('2026-10', 'う'), bill('2026-10', 'あ')]).map((b) => b.documentReferenceId)).toEqual([
      'あ-2026-10',
      'う-2026-10',
      'い-2026-09',
    ]);
  });
});
