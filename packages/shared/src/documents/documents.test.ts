import { describe, expect, it } from 'vitest';
import { ROLE_LEVELS } from '../roles.ts';
import { dataScopeOf, guardAllowsView, guardAllowsWrite, inScope, levelAllows, type Claims, type RecordTenant } from './access.ts';
import { COLLECTIONS, collectionByGroup, collectionByName, OPERATIONS } from './collections.ts';
import { DocumentError, MESSAGES } from './errors.ts';
import { parseCollectionPath, parseDocumentPath } from './paths.ts';
import { checkMaxAttempts, DEFAULT_PAGE_SIZE, validateQuery } from './query.ts';
import { applySet, applyUpdate, changedKeys, DELETE_FIELD } from './update.ts';
import { issuesOf, readRecord } from './validate.ts';

function spec(name: string) {
  const found = collectionByName(name);
  if (found === undefined) throw new Error(name);
  return found;
}

function errorOf(fn: () => unknown): DocumentError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DocumentError) return error;
    throw error;
  }
  throw new Error('did not throw');
}

describe('the registry', () => {
  it('has every collection of PRODUCT.md section 5 with its template, and the partner requests of the consent flow', () => {
    expect(COLLECTIONS.map((c) => c.template)).toEqual([
      'domains/{domainId}',
      'domains/{domainId}/staff/{uid}',
      'domains/{domainId}/partners/{partnerDomainId}',
      'domains/{domainId}/bills/{billId}',
      'rooms/{roomId}',
      'rooms/{roomId}/sleeps/{day}',
      'rooms/{roomId}/uploads/{uploadId}',
      'devices/{serial}',
      'devices/{serial}/borrows/{borrowId}',
      'deviceTypes/{id}',
      'parameters/{id}',
      'views/{id}',
      'histories/{id}',
      'alerts/{id}',
      'auditLogs/{id}',
      'invitations/{id}',
      'reportAccess/{id}',
      // Partnership by consent (docs/security.md, "Agencies and partners").
      'domains/{domainId}/partnerRequests/{customerDomainId}',
    ]);
    expect(collectionByName('rooms/sleeps')?.parent).toBe('rooms');
    expect(collectionByGroup('staff')?.name).toBe('domains/staff');
    expect(new Set(COLLECTIONS.map((c) => c.group)).size).toBe(COLLECTIONS.length);
  });

  it('has an access rule for every operation, and audit logs are written by the server only', () => {
    for (const c of COLLECTIONS) for (const op of OPERATIONS) expect(c.access[op] === null || typeof c.access[op] === 'number').toBe(true);
    const audit = spec('auditLogs');
    expect([audit.access.create, audit.access.update, audit.access.delete]).toEqual([null, null, null]);
  });
});

describe('schema messages (zod 3)', () => {
  const room = spec('rooms');
  const cases: [string, string, Record<string, unknown>, string][] = [
    ['rooms', 'missing field', { name: 'A' }, 'Required'],
    ['rooms', 'wrong type', { domainId: 'd', name: 5 }, 'Expected string, received number'],
    ['rooms', 'empty string', { domainId: 'd', name: '' }, 'String must contain at least 1 character(s)'],
    ['rooms', 'unknown key', { domainId: 'd', name: 'A', colour: 'red' }, "Unrecognized key(s) in object: 'colour'"],
    ['rooms', 'common field written', { domainId: 'd', name: 'A', createdAt: 'x' }, "Unrecognized key(s) in object: 'createdAt'"],
    [
      'rooms',
      'bad enum',
      { domainId: 'd', name: 'A', status: 'sleeping' },
      "Invalid enum value. Expected 'active' | 'vacant' | 'inactive', received 'sleeping'",
    ],
    ['domains/staff', 'bad email', { displayName: 'A', email: 'nope', accessLevel: 2 }, 'Invalid email'],
    ['domains/staff', 'negative level', { displayName: 'A', email: 'a@b.jp', accessLevel: -1 }, 'Number must be greater than or equal to 0'],
    ['domains', 'latitude', { name: 'A', kind: 'facility', location: { latitude: 91, longitude: 0 } }, MESSAGES.latitude],
    ['domains', 'longitude', { name: 'A', kind: 'facility', location: { latitude: 0, longitude: -181 } }, MESSAGES.longitude],
    ['deviceTypes', 'bad base64', { name: 'A', model: 'M', calibration: 'not base64!' }, MESSAGES.base64],
  ];
  it.each(cases)('%s: %s', (name, _what, data, message) => {
    expect(issuesOf(spec(name), data)[0]?.message).toBe(message);
  });
  it('accepts valid records, GeoPoint at its bounds and base64', () => {
    expect(issuesOf(room, { domainId: 'd', name: 'A', ownerUids: ['u'] })).toEqual([]);
    expect(issuesOf(spec('domains'), { name: 'A', kind: 'facility', location: { latitude: -90, longitude: 180 } })).toEqual([]);
    expect(issuesOf(spec('deviceTypes'), { name: 'A', model: 'M', calibration: 'AAEC' })).toEqual([]);
  });
  it('reads a record failing its schema as id and path only', () => {
    expect(readRecord(room, 'r1', 'rooms/r1', { name: 5 }, 'c', 'u')).toEqual({ documentReferenceId: 'r1', documentPath: 'rooms/r1' });
    expect(readRecord(room, 'r1', 'rooms/r1', { domainId: 'd', name: 'A' }, 'c', 'u')).toEqual({
      domainId: 'd',
      name: 'A',
      documentReferenceId: 'r1',
      documentPath: 'rooms/r1',
      createdAt: 'c',
      updatedAt: 'u',
    });
  });
});

describe('paths', () => {
  it.each([
    ['rooms/r1', 'rooms', ''],
    ['rooms/r1/sleeps/2026-01-02', 'rooms/sleeps', 'rooms/r1'],
    ['domains/d/staff/u', 'domains/staff', 'domains/d'],
  ])('%s', (path, name, parent) => {
    const ref = parseDocumentPath(path);
    expect([ref.spec.name, ref.parentPath]).toEqual([name, parent]);
  });
  it.each([
    ['rooms', MESSAGES.badDocumentPath('rooms')],
    ['rooms//sleeps/x', MESSAGES.badDocumentPath('rooms//sleeps/x')],
    ['rooms/r1/sleeps/yesterday', MESSAGES.badDocumentPath('rooms/r1/sleeps/yesterday')],
    ['cats/c1', MESSAGES.unknownCollection('cats')],
  ])('refuses %s', (path, message) => {
    expect(errorOf(() => parseDocumentPath(path))).toMatchObject({ code: 'invalid-argument', message });
  });
  it('allows an empty id only when asked (the refused update)', () => {
    expect(parseDocumentPath('rooms/', { allowEmptyId: true }).id).toBe('');
    expect(parseCollectionPath('rooms/r1/sleeps').parentPath).toBe('rooms/r1');
  });
});

describe('query rules', () => {
  const q = (extra: Record<string, unknown>) => ({ collection: 'rooms', ...extra });
  it.each([
    [
      'two !=',
      q({
        where: [
          ['a', '!=', 1],
          ['b', '!=', 2],
        ],
      }),
      MESSAGES.moreThanOneNotEqual,
    ],
    [
      'two not-in',
      q({
        where: [
          ['a', 'not-in', [1]],
          ['b', 'not-in', [2]],
        ],
      }),
      MESSAGES.moreThanOneNotIn,
    ],
    [
      '!= with not-in',
      q({
        where: [
          ['a', '!=', 1],
          ['b', 'not-in', [2]],
        ],
      }),
      MESSAGES.notInWithNotEqual,
    ],
    ['empty in', q({ where: [['a', 'in', []]] }), MESSAGES.emptyIn('in')],
    ['in without a list', q({ where: [['a', 'in', 3]] }), MESSAGES.emptyIn('in')],
    ['empty not-in', q({ where: [['a', 'not-in', []]] }), MESSAGES.emptyIn('not-in')],
    ['empty array-contains-any', q({ where: [['a', 'array-contains-any', []]] }), MESSAGES.emptyIn('array-contains-any')],
    ['limitToLast without orderBy', q({ limitToLast: 3 }), MESSAGES.limitToLastNeedsOrder],
    ['empty field path', q({ where: [['', '==', 1]] }), MESSAGES.emptyFieldPath('')],
    ['empty segment', q({ where: [['a..b', '==', 1]] }), MESSAGES.emptyFieldPath('a..b')],
    ['leading dot', q({ orderBy: [['.a']] }), MESSAGES.emptyFieldPath('.a')],
    ...['~', '*', '/', '[', ']'].map((c): [string, Record<string, unknown>, string] => [
      `'${c}' in a path`,
      q({ where: [[`a${c}b`, '==', 1]] }),
      MESSAGES.badFieldPath(`a${c}b`),
    ]),
  ])('%s', (_what, query, message) => {
    expect(errorOf(() => validateQuery(query))).toMatchObject({ code: 'invalid-argument', message });
  });
  it('fills in the default page size of 50 and accepts one != and nested paths', () => {
    const valid = validateQuery(
      q({
        where: [
          ['numbers.heartRateHigh', '!=', 1],
          ['a', 'in', [1]],
        ],
        orderBy: [['name', 'desc']],
      }),
    );
    expect(valid.limit).toBe(DEFAULT_PAGE_SIZE);
    expect(valid.where[0]?.field).toEqual(['numbers', 'heartRateHigh']);
    expect(valid.orderBy).toEqual([{ field: ['name'], direction: 'desc' }]);
    expect(validateQuery(q({ orderBy: [['name']], limitToLast: 2 }))).toMatchObject({ limit: 2, fromEnd: true });
  });
  it('needs at least 1 attempt for a transaction', () => {
    expect(errorOf(() => checkMaxAttempts(0))).toMatchObject({ code: 'invalid-argument', message: 'Max attempts must be at least 1' });
    expect(checkMaxAttempts(1)).toBe(1);
  });
});

describe('writes', () => {
  it('removes a field set to the delete sentinel, in a set with merge and in an update', () => {
    expect(applySet({ a: 1, b: { c: 2, d: 3 } }, { b: { c: DELETE_FIELD }, e: 4 }, true)).toEqual({ a: 1, b: { d: 3 }, e: 4 });
    expect(applySet({ a: 1 }, { b: 2 }, false)).toEqual({ b: 2 });
    expect(applyUpdate({ a: 1, n: { x: 1, y: 2 } }, { 'n.x': DELETE_FIELD, 'n.z': 3, a: null })).toEqual({ a: null, n: { y: 2, z: 3 } });
    expect(changedKeys({ a: 1, n: { x: 1 } }, { a: 1, n: { x: 2 }, b: 1 })).toEqual(['b', 'n.x']);
  });
  it('refuses data that is not an object', () => {
    expect(errorOf(() => applySet(null, [1], false)).message).toBe('Function setDoc() called with invalid data');
    expect(errorOf(() => applyUpdate({}, 'x')).message).toBe('Function updateDoc() called with invalid data');
  });
});

describe('data scope', () => {
  const claims = (accessLevel: number, domainId: string | null = 'fa', rootDomainId: string | null = 'corp'): Claims => ({
    uid: 'u1',
    accessLevel,
    domainId,
    rootDomainId,
  });
  const facts = { partnerDomainIds: ['fa'], ownedRoomIds: ['r1'] };
  const tenants: Record<string, RecordTenant> = {
    ownRoom: { domainId: 'household', rootDomainId: 'household', roomId: 'r1' },
    facilityA: { domainId: 'fa', rootDomainId: 'corp', roomId: 'r2' },
    facilityB: { domainId: 'fb', rootDomainId: 'corp', roomId: 'r3' },
    agency: { domainId: 'ag', rootDomainId: 'ag', roomId: null },
    other: { domainId: 'x', rootDomainId: 'x', roomId: 'r9' },
  };
  const cases: [string, Claims, string[]][] = [
    ['level 1: own rooms', claims(1, 'household', 'household'), ['ownRoom']],
    ['level 2: own domain', claims(2), ['facilityA']],
    ['level 3: own domain', claims(3), ['facilityA']],
    ['level 5: root domain', claims(5, 'corp'), ['facilityA', 'facilityB']],
    ['level 50: agency and partners', claims(50, 'ag', 'ag'), ['facilityA', 'agency']],
    ['level 100: all', claims(100, 'maker', 'maker'), Object.keys(tenants)],
    ['level 0: nothing', claims(0), []],
    ['level 2 without a domain: nothing', claims(2, null, null), []],
  ];
  it.each(cases)('%s', (_what, who, visible) => {
    const scope = dataScopeOf(who, facts);
    expect(Object.keys(tenants).filter((key) => inScope(scope, tenants[key] as RecordTenant))).toEqual(visible);
  });
  it('applies minimum levels', () => {
    expect(levelAllows(spec('rooms'), 'read', 1)).toBe(true);
    expect(levelAllows(spec('rooms'), 'create', 2)).toBe(false);
    expect(levelAllows(spec('auditLogs'), 'create', 200)).toBe(false);
  });
  it('applies the staff rules', () => {
    const staff = spec('domains/staff');
    const admin = { accessLevel: 3 };
    const general = { accessLevel: 2 };
    expect(guardAllowsView(staff, claims(2), admin)).toBe(false);
    expect(guardAllowsView(staff, claims(2), general)).toBe(true);
    expect(guardAllowsView(staff, claims(3), admin)).toBe(true);
    expect(guardAllowsWrite(staff, claims(2), general, { accessLevel: 2 })).toBe(true);
    expect(guardAllowsWrite(staff, claims(2), general, admin)).toBe(false);
    expect(guardAllowsWrite(staff, claims(3), admin, { accessLevel: 3 })).toBe(false);
    expect(guardAllowsWrite(staff, claims(3), null, admin)).toBe(false);
    expect(guardAllowsWrite(staff, claims(4), admin, { accessLevel: 4 })).toBe(true);
    expect(guardAllowsWrite(staff, claims(4), null, { accessLevel: 5 })).toBe(false);
    expect(guardAllowsWrite(spec('rooms'), claims(ROLE_LEVELS.generalStaff), null, {})).toBe(true);
  });
});
