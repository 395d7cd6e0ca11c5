import { describe, expect, it } from 'vitest';
import { collectionByName } from '@nemuri/shared/documents/collections';
import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import { validateQuery } from '@nemuri/shared/documents/query';
import { ROLE_LEVELS } from '@nemuri/shared/roles';
import { buildDomainRows, filterDomainRows, pageOfRows, type DomainInput } from './domainRows.ts';
import { canEditMasterData } from './masterAccess.ts';
import { countItems, isOnline, onlineSince, ONLINE_WINDOW_MS } from './api/masterCounts.ts';
import { channelsText, checkDeviceType, checkRelease, checkView, listOf, parseChannels, releaseIdOf } from './masterForms.ts';
import { checkParameter, EMPTY_PARAMETER, parameterDraftOf, parameterValueProblem } from './parameterForm.ts';
import { releaseNoticeDecision } from './releaseNotice.ts';
import { RecordExists, refusalOf } from './serverRefusal.ts';

describe('parameter values', () => {
  const draft = { ...EMPTY_PARAMETER, key: 'apneaMinSec', value: '10', min: '5', max: '30', unit: '秒' };

  it('accepts a number within its range and gives the record fields', () => {
    expect(checkParameter(draft)).toEqual({ ok: true, fields: { key: 'apneaMinSec', type: 'number', value: 10, min: 5, max: 30, unit: '秒' } });
  });

  it('refuses a value outside min and max, a non-number, and min above max', () => {
    expect(checkParameter({ ...draft, value: '4' })).toEqual({ ok: false, problems: { value: 'belowMin' } });
    expect(checkParameter({ ...draft, value: '31' })).toEqual({ ok: false, problems: { value: 'aboveMax' } });
    expect(checkParameter({ ...draft, value: '十' })).toEqual({ ok: false, problems: { value: 'notNumber' } });
    expect(checkParameter({ ...draft, value: '' })).toEqual({ ok: false, problems: { value: 'required' } });
    expect(checkParameter({ ...draft, min: '40' })).toMatchObject({ ok: false, problems: { max: 'minAboveMax' } });
    expect(checkParameter({ ...draft, min: 'x' })).toMatchObject({ ok: false, problems: { min: 'notNumber' } });
  });

  it('checks keys, booleans and strings, and refuses a range on a non-number', () => {
    expect(checkParameter({ ...draft, key: '' })).toMatchObject({ ok: false, problems: { key: 'required' } });
    expect(checkParameter({ ...draft, key: 'a/b' })).toMatchObject({ ok: false, problems: { key: 'keyFormat' } });
    const flag = { ...EMPTY_PARAMETER, key: 'f', type: 'boolean' as const, value: 'true' };
    expect(checkParameter(flag)).toEqual({ ok: true, fields: { key: 'f', type: 'boolean', value: true } });
    expect(checkParameter({ ...flag, value: 'yes' })).toEqual({ ok: false, problems: { value: 'notBoolean' } });
    expect(checkParameter({ ...flag, min: '1' })).toMatchObject({ ok: false, problems: { min: 'rangeOnlyForNumber' } });
    const text = { ...EMPTY_PARAMETER, key: 's', type: 'string' as const, value: ' pan ', deviceTypeId: 'nemuri-chest' };
    expect(checkParameter(text)).toEqual({ ok: true, fields: { key: 's', type: 'string', value: 'pan', deviceTypeId: 'nemuri-chest' } });
    expect(checkParameter({ ...text, value: '' })).toEqual({ ok: false, problems: { value: 'required' } });
  });

  it('judges stored values, and round-trips a record through the form', () => {
    expect(parameterValueProblem(5, 'number', 1, 10)).toBeNull();
    expect(parameterValueProblem('5', 'number')).toBe('notNumber');
    expect(parameterValueProblem(11, 'number', null, 10)).toBe('aboveMax');
    expect(parameterValueProblem(false, 'boolean')).toBeNull();
    const fields = { key: 'k', type: 'number' as const, value: 0.7, min: 0.3, max: 2, unit: 'Hz', description: '帯域上限' };
    expect(checkParameter(parameterDraftOf(fields))).toEqual({ ok: true, fields });
  });
});

describe('overview counts', () => {
  it('are valid engine queries with unique ids', () => {
    const items = countItems(Date.parse('2026-01-01T00:00:45Z'));
    for (const item of items) expect(() => validateQuery(item.query)).not.toThrow();
    expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
    expect(items.find((item) => item.id === 'devicesOnline')?.query.where).toEqual([['lastSeenAt', '>=', '2026-01-01T00:00:00.000Z']]);
    expect(items.filter((item) => item.warnWhenPositive).map((item) => item.id)).toEqual(['uploadsFailed', 'alertsOpen']);
  });

  it('call a device online within the window only', () => {
    const now = Date.parse('2026-01-01T12:00:00Z');
    expect(onlineSince(now)).toBe(new Date(now - ONLINE_WINDOW_MS).toISOString());
    expect(isOnline(new Date(now - 1000).toISOString(), now)).toBe(true);
    expect(isOnline(new Date(now - ONLINE_WINDOW_MS).toISOString(), now)).toBe(false);
    expect(isOnline(null, now)).toBe(false);
  });
});

describe('domain rows', () => {
  const domains: DomainInput[] = [
    { documentReferenceId: 'corp', name: '法人', kind: 'corporation' },
    { documentReferenceId: 'fa', name: 'さくら苑', kind: 'facility', parentDomainId: 'corp', rootDomainId: 'corp', agencyDomainId: 'ag' },
    { documentReferenceId: 'ag', name: '代理店', kind: 'agency', status: 'suspended' },
  ];
  const rows = buildDomainRows(domains);

  it('names parents, roots and agencies', () => {
    const sakura = rows.find((row) => row.id === 'fa');
    expect(sakura).toMatchObject({ parentName: '法人', rootName: '法人', agencyName: '代理店', status: 'active' });
  });

  it('shows a page of the rows: every row on exactly one page, a page beyond the last shows the last', () => {
    const many = Array.from({ length: 2_345 }, (_, index) => index);
    const { pages } = pageOfRows(many, 1, 50);
    expect(pages).toBe(47);
    const seen = Array.from({ length: pages }, (_, index) => pageOfRows(many, index + 1, 50).rows).flat();
    expect(seen).toEqual(many);
    expect(pageOfRows(many, 99, 50).rows).toEqual(many.slice(2_300));
    expect(pageOfRows([], 1, 50)).toEqual({ rows: [], pages: 1 });
  });

  it('searches and filters by kind and status', () => {
    expect(filterDomainRows(rows, { search: 'さくら', kind: null, status: null }).map((row) => row.id)).toEqual(['fa']);
    expect(
      filterDomainRows(rows, { search: '法人', kind: null, status: null })
        .map((row) => row.id)
        .sort(),
    ).toEqual(['corp', 'fa']);
    expect(filterDomainRows(rows, { search: '', kind: 'agency', status: null }).map((row) => row.id)).toEqual(['ag']);
    expect(filterDomainRows(rows, { search: '', kind: null, status: 'active' })).toHaveLength(2);
  });
});

describe('master forms', () => {
  it('check release notes', () => {
    expect(checkRelease({ version: '0.9.0', date: '2026-11-01', title: ' 新機能 ', body: '本文' })).toEqual({
      ok: true,
      fields: { version: '0.9.0', date: '2026-11-01', title: '新機能', body: '本文' },
    });
    expect(checkRelease({ version: 'v1', date: '11/01', title: '', body: '' })).toEqual({
      ok: false,
      problems: { version: 'versionFormat', date: 'dateFormat', title: 'required' },
    });
    expect(releaseIdOf(' 0.9.0 ')).toBe('v0-9-0');
  });

  it('check views', () => {
    expect(checkView({ routeKey: 'raw-x', name: '', deviceTypeIds: ['a', 'a'], channels: 'ecg, impe\nimpe' })).toEqual({
      ok: true,
      fields: { routeKey: 'raw-x', deviceTypeIds: ['a'], channels: ['ecg', 'impe'] },
    });
    expect(checkView({ routeKey: 'raw x', name: '', deviceTypeIds: [], channels: '' })).toEqual({ ok: false, problems: { routeKey: 'idFormat' } });
    expect(listOf('a、b,,c')).toEqual(['a', 'b', 'c']);
  });

  it('check device types and their channel lines', () => {
    const channels = [
      { key: 'ecg', sampleRateHz: 250, unit: 'mV', scale: 0.001 },
      { key: 'button', sampleRateHz: 0, unit: null, scale: null },
    ];
    expect(parseChannels(channelsText(channels))).toEqual(channels);
    expect(parseChannels('ecg, fast')).toBeNull();
    const checked = checkDeviceType({ id: 'nemuri-x', name: 'X', model: 'NM-X', description: '', rawViews: ['raw-ecg'], channels: 'ecg, 250, mV, 0.001' });
    expect(checked).toEqual({
      ok: true,
      fields: {
        id: 'nemuri-x',
        fields: { name: 'X', model: 'NM-X', rawViews: ['raw-ecg'], channels: [{ key: 'ecg', sampleRateHz: 250, unit: 'mV', scale: 0.001 }] },
      },
    });
    expect(checkDeviceType({ id: '', name: '', model: 'M', description: '', rawViews: [], channels: 'x' })).toEqual({
      ok: false,
      problems: { id: 'required', name: 'required', channels: 'channelsFormat' },
    });
  });
});

describe('refusals and access', () => {
  it('word the server answers', () => {
    expect(refusalOf(new DocumentError('permission-denied', MESSAGES.outOfScope)).messageKey).toBe('permission');
    expect(refusalOf(new DocumentError('invalid-argument', MESSAGES.notUnique('version')))).toEqual({ messageKey: 'notUnique', fields: ['version'] });
    expect(refusalOf(new DocumentError('invalid-argument', 'bad', [{ path: ['value'], message: 'Expected number' }]))).toEqual({
      messageKey: 'invalid',
      fields: ['value'],
    });
    expect(refusalOf(new RecordExists('parameters/x')).messageKey).toBe('exists');
    expect(refusalOf(new TypeError('fetch failed')).messageKey).toBe('network');
  });

  it('let senior developers edit, developers only look, as the registry rules say', () => {
    expect(canEditMasterData(ROLE_LEVELS.developer)).toBe(false);
    expect(canEditMasterData(ROLE_LEVELS.seniorDeveloper)).toBe(true);
    for (const name of ['deviceTypes', 'parameters', 'views', 'histories']) {
      expect(collectionByName(name)?.access, name).toEqual({ read: 1, list: 1, create: 101, update: 101, delete: 101 });
    }
  });
});

describe('release notice', () => {
  const notes = [
    { version: '0.8.31', date: '2026-10-01', title: 'old', body: '' },
    { version: '0.8.32', date: '2026-11-01', title: 'new', body: '' },
  ];
  it('remembers silently on a first visit, shows the newest note after a version change, nothing otherwise', () => {
    expect(releaseNoticeDecision(null, '0.8.32', notes)).toEqual({ show: null, remember: '0.8.32' });
    expect(releaseNoticeDecision('0.8.32', '0.8.32', notes)).toEqual({ show: null, remember: null });
    expect(releaseNoticeDecision('0.8.31', '0.8.32', notes)).toEqual({ show: notes[1], remember: null });
    expect(releaseNoticeDecision('0.8.31', '0.8.32', [])).toEqual({ show: null, remember: '0.8.32' });
  });
});
