import { describe, expect, it } from 'vitest';
import { apiFilterOf, csvAllowed, filterFromParams, paramsOfFilter } from './auditLogFilter.ts';

describe('audit log filters', () => {
  it('read from the address, ignoring what the API would refuse, and back', () => {
    const filter = filterFromParams(new URLSearchParams('domain=demo-facility-a&who=u1&collection=rooms&operation=delete&from=2026-11-01&to=2026-11-30'));
    expect(filter).toEqual({ domainId: 'demo-facility-a', who: 'u1', collection: 'rooms', operation: 'delete', from: '2026-11-01', to: '2026-11-30' });
    expect(paramsOfFilter(filter)).toEqual({
      domain: 'demo-facility-a',
      who: 'u1',
      collection: 'rooms',
      operation: 'delete',
      from: '2026-11-01',
      to: '2026-11-30',
    });
    expect(filterFromParams(new URLSearchParams('collection=auditLogs&operation=drop&from=2026-13-01&to=yesterday'))).toEqual({
      domainId: null,
      who: null,
      collection: null,
      operation: null,
      from: null,
      to: null,
    });
  });

  it('gives the API Japan-time days: from the start of the first to the end of the last', () => {
    expect(apiFilterOf({ domainId: null, who: null, collection: null, operation: null, from: '2026-11-01', to: '2026-11-30' })).toEqual({
      from: '2026-10-31T15:00:00.000Z',
      to: '2026-11-30T15:00:00.000Z',
    });
  });

  it('allows a CSV of both days set, in order, at most 93 days', () => {
    const base = { domainId: null, who: null, collection: null, operation: null };
    expect(csvAllowed({ ...base, from: '2026-11-01', to: '2026-11-30' })).toBe(true);
    expect(csvAllowed({ ...base, from: '2026-11-01', to: null })).toBe(false);
    expect(csvAllowed({ ...base, from: '2026-11-30', to: '2026-11-01' })).toBe(false);
    expect(csvAllowed({ ...base, from: '2026-01-01', to: '2026-06-01' })).toBe(false);
  });
});
