import { DocumentError, MESSAGES } from '@nemuri/shared/documents/errors';
import { describe, expect, it } from 'vitest';
import ja from '../../locales/ja.json';
import { errorKeyOf, RoomConfigRefusal } from './api/roomConfigActions.ts';
import { problemsOf, roomFieldsOf, validateRoom, type RoomFormValues, type ValidationRule } from './roomConfigForm.ts';
import { assignableDevices, groupRooms, moveWrites, type Device, type Room } from './roomConfigRows.ts';

const values = (changes: Partial<RoomFormValues> = {}): RoomFormValues => ({
  domainId: 'facility-a',
  name: '101号室',
  floor: ' 1F ',
  unit: '',
  sortOrder: 3,
  residentName: '',
  residentNote: '',
  status: 'active',
  deviceSerial: '',
  ...changes,
});

const common = (id: string) => ({ documentReferenceId: id, documentPath: `rooms/${id}`, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' });
const room = (id: string, fields: Partial<Room> = {}): Room => ({ ...common(id), domainId: 'facility-a', name: id, ...fields });
const device = (serial: string, fields: Partial<Device> = {}): Device => ({
  ...common(serial),
  documentPath: `devices/${serial}`,
  deviceTypeId: 'nemuri-bed',
  status: 'in_use',
  domainId: 'facility-a',
  ...fields,
});

function rulesOf(validation: ReturnType<typeof validateRoom>): Record<string, ValidationRule> {
  if (validation.ok) return {};
  return Object.fromEntries(Object.entries(validation.problems).map(([field, problem]) => [field, problem.rule]));
}

describe('room form validation (the registry schema the server enforces)', () => {
  it('trims the input and stores emptied optional fields as null', () => {
    expect(roomFieldsOf(values(), 'corp')).toEqual({
      domainId: 'facility-a',
      rootDomainId: 'corp',
      name: '101号室',
      floor: '1F',
      unit: null,
      sortOrder: 3,
      residentName: null,
      residentNote: null,
      deviceSerial: null,
      status: 'active',
    });
    expect(validateRoom(roomFieldsOf(values(), 'corp')).ok).toBe(true);
  });

  it('refuses an empty name, a name of spaces, a non-number order and an unknown status, field by field', () => {
    expect(rulesOf(validateRoom(roomFieldsOf(values({ name: '   ' }), null)))).toEqual({ name: 'required' });
    expect(rulesOf(validateRoom(roomFieldsOf(values({ name: '', sortOrder: 'abc', status: 'closed', domainId: '' }), null)))).toEqual({
      name: 'required',
      sortOrder: 'number',
      status: 'choice',
      domainId: 'required',
    });
  });

  it("reads the server's issues (zod messages only) into the same rules", () => {
    const problems = problemsOf([
      { path: ['name'], message: 'String must contain at least 1 character(s)' },
      { path: ['sortOrder'], message: 'Expected number, received string' },
      { path: ['status'], message: "Invalid enum value. Expected 'active' | 'vacant' | 'inactive', received 'x'" },
      { path: ['domainId'], message: 'Required' },
      { path: [], message: "Unrecognized key(s) in object: 'x'" },
    ]);
    expect(Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, problem.rule]))).toEqual({
      name: 'required',
      sortOrder: 'number',
      status: 'choice',
      domainId: 'required',
      form: 'unknownField',
    });
  });

  it('has a Japanese message for every rule and a label for every field', () => {
    const rules: ValidationRule[] = ['required', 'number', 'integer', 'min', 'max', 'tooShort', 'tooLong', 'choice', 'invalidType', 'unknownField', 'invalid'];
    for (const rule of rules) expect(ja.roomConfig.validation[rule]).toMatch(/[ぁ-んァ-ヶ一-龠]/);
    expect(ja.roomConfig.validation.required.replace('{{field}}', ja.roomConfig.fields.name)).toBe('部屋名を入力してください');
  });
});

describe('room configuration errors', () => {
  it("words the engine's refusals in Japanese", () => {
    const text = (error: unknown) =>
      errorKeyOf(error)
        .split('.')
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], ja);
    expect(text(new DocumentError('invalid-argument', MESSAGES.notUnique('deviceSerial')))).toBe('この機器は既に他の部屋に割り当てられています');
    expect(text(new DocumentError('permission-denied', MESSAGES.outOfScope))).toBe('この操作を行う権限がありません');
    expect(text(new RoomConfigRefusal('deviceAssigned'))).toMatch(/機器が割り当てられている/);
    expect(text(new TypeError('Failed to fetch'))).toMatch(/接続できませんでした/);
  });
});

describe('room order and grouping', () => {
  const rooms = [
    room('b', { sortOrder: 2, floor: '1F' }),
    room('a', { sortOrder: 1, floor: '1F' }),
    room('c', { sortOrder: 3, floor: '2F' }),
    room('d', { floor: null }),
  ];

  it('groups by floor and unit, rooms without a floor last, sorted by order', () => {
    const groups = groupRooms(rooms, { search: '', floor: null, unit: null }, 'sortOrder');
    expect(groups.map((group) => [group.floor, group.rooms.map((item) => item.documentReferenceId)])).toEqual([
      ['1F', ['a', 'b']],
      ['2F', ['c']],
      [null, ['d']],
    ]);
  });

  it('swaps distinct orders, and numbers a group again when orders are missing or equal', () => {
    const group = [room('a', { sortOrder: 1 }), room('b', { sortOrder: 2 })];
    expect(moveWrites(group, 'b', -1)).toEqual([
      { roomId: 'b', sortOrder: 1 },
      { roomId: 'a', sortOrder: 2 },
    ]);
    expect(moveWrites(group, 'a', -1)).toEqual([]);
    expect(moveWrites([room('x', { sortOrder: 5 }), room('y', { sortOrder: 5 }), room('z')], 'y', -1)).toEqual([
      { roomId: 'x', sortOrder: 6 },
      { roomId: 'z', sortOrder: 7 },
    ]);
  });

  it("offers only free devices of the room's domain, and the room's own", () => {
    const devices = [
      device('NM-1', { roomId: 'a' }),
      device('NM-2', { roomId: null }),
      device('NM-3', { domainId: 'facility-b' }),
      device('NM-4', { status: 'retired' }),
      device('NM-5'),
    ];
    const held = [...rooms, room('e', { deviceSerial: 'NM-5' })];
    expect(assignableDevices(devices, held, 'facility-a', 'a').map((item) => item.documentReferenceId)).toEqual(['NM-1', 'NM-2']);
    expect(assignableDevices(devices, held, 'facility-a', null).map((item) => item.documentReferenceId)).toEqual(['NM-2']);
  });
});
