/**
 * The documented answers of the device registration, room state and alert history routes are the
 * real ones (responseConformance.ts): an administrator registers, rotates and moves a device; staff
 * read the live rooms, the alert history and the night summary; a signed-out caller and records of
 * another tenant (answered like missing ones) give the errors.
 */
import { ALERT_HISTORY_PATH, NIGHT_SUMMARY_PATH } from '@nemuri/shared/alertHistory';
import { MONITORING_ROOMS_PATH } from '@nemuri/shared/monitoring';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BrowserClient } from '../testing/browserClient.ts';
import { FACILITY_A as A, FACILITY_OTHER as OTHER, startConformanceServer, SYSTEM as system, type ConformanceServer } from './responseConformance.ts';

describe('documented response schemas match the answers: devices, rooms and alerts', () => {
  let running: ConformanceServer;
  const conforms: ConformanceServer['conforms'] = (method, route, reply) => running.conforms(method, route, reply);

  beforeAll(async () => {
    running = await startConformanceServer('nemuri-responses-rooms-');
    const store = running.store;
    await store.set(system, 'rooms/rr-a1', { domainId: A, name: '201号室', residentName: '山田 花子', deviceSerial: 'RR-A1' }, false);
    await store.set(system, 'rooms/rr-a2', { domainId: A, name: '202号室' }, false);
    await store.set(system, 'rooms/rr-o1', { domainId: OTHER, name: '別施設の部屋' }, false);
    await store.set(system, 'devices/RR-A1', { deviceTypeId: 'nemuri-chest', domainId: A, roomId: 'rr-a1', status: 'in_use' }, false);
    await store.set(system, 'devices/RR-A2', { deviceTypeId: 'nemuri-chest', domainId: A, roomId: null, status: 'lent' }, false);
    await store.set(system, 'devices/RR-OLD', { deviceTypeId: 'nemuri-chest', domainId: A, roomId: null, status: 'retired' }, false);
    await store.set(system, 'devices/RR-O1', { deviceTypeId: 'nemuri-chest', domainId: OTHER, roomId: null, status: 'lent' }, false);
    const alert = { deviceSerial: null, endedAt: null, acknowledgedBy: null, acknowledgedAt: null, soundedAt: null };
    await store.set(system, 'alerts/rr-alert-a', { ...alert, domainId: A, roomId: 'rr-a1', type: 'outOfBed', startedAt: '2026-11-20T13:30:00.000Z' }, false);
    await store.set(system, 'alerts/rr-alert-o', { ...alert, domainId: OTHER, roomId: 'rr-o1', type: 'button', startedAt: '2026-11-20T13:40:00.000Z' }, false);
  }, 120_000);
  afterAll(async () => {
    await running?.stop();
  });

  it('devices: registered, its secret rotated, put in a room and taken out; refused, missing and out of scope', async () => {
    const admin = await running.client('admin@example.com');
    const staff = await running.client('staff@example.com');
    const outsider = await running.client();
    const put = (who: BrowserClient, path: string, body: unknown) => who.send('PUT', path, JSON.stringify(body), { 'content-type': 'application/json' });
    const registration = '/api/devices/:serial/registration';
    const registered = conforms('POST', registration, await admin.post('/api/devices/RR-A2/registration', { roomId: 'rr-a2' }));
    expect(registered.status).toBe(200);
    conforms('POST', registration, await admin.post('/api/devices/RR-A2/registration', { roomId: 'rr-a1' }));
    conforms('POST', registration, await admin.post('/api/devices/RR-A2/registration', { roomId: 'rr-o1' }));
    conforms('POST', registration, await admin.post('/api/devices/RR-A2/registration', { unknown: true }));
    conforms('POST', registration, await admin.post('/api/devices/RR-OLD/registration', {}));
    conforms('POST', registration, await admin.post('/api/devices/RR-O1/registration', {}));
    conforms('POST', registration, await admin.post('/api/devices/NO-SUCH/registration', {}));
    conforms('POST', registration, await staff.post('/api/devices/RR-A2/registration', {}));
    conforms('POST', registration, await outsider.post('/api/devices/RR-A2/registration', {}));

    const secret = '/api/devices/:serial/secret';
    expect(conforms('POST', secret, await admin.post('/api/devices/RR-A2/secret', {})).status).toBe(200);
    expect(conforms('POST', secret, await admin.post('/api/devices/RR-O1/secret', {})).status).toBe(404);
    conforms('POST', secret, await outsider.post('/api/devices/RR-A2/secret', {}));

    const room = '/api/devices/:serial/room';
    expect(conforms('PUT', room, await put(admin, '/api/devices/RR-A2/room', { roomId: null })).status).toBe(200);
    expect(conforms('PUT', room, await put(admin, '/api/devices/RR-A2/room', { roomId: 'rr-a2' })).status).toBe(200);
    expect(conforms('PUT', room, await put(admin, '/api/devices/RR-O1/room', { roomId: 'rr-o1' })).status).toBe(404);
    conforms('PUT', room, await put(admin, '/api/devices/RR-A2/room', { roomId: 'a/b' }));
    conforms('PUT', room, await put(staff, '/api/devices/RR-A2/room', { roomId: null }));
    expect(conforms('DELETE', room, await admin.send('DELETE', '/api/devices/RR-A2/room', undefined)).status).toBe(200);
    expect(conforms('DELETE', room, await admin.send('DELETE', '/api/devices/RR-O1/room', undefined)).status).toBe(404);
    conforms('DELETE', room, await outsider.send('DELETE', '/api/devices/RR-A2/room', undefined));
  });

  it('live rooms: the caller’s rooms, or 401 signed out', async () => {
    // The records were written beside the server's store: its room list reads them now rather than within the minute.
    await running.server.app.monitoring.directory.refresh();
    running.server.app.monitoring.tick();
    const staff = await running.client('staff@example.com');
    const rooms = conforms('GET', MONITORING_ROOMS_PATH, await staff.get(MONITORING_ROOMS_PATH));
    expect((rooms.body as { rooms: { roomId: string }[] }).rooms.map((state) => state.roomId)).toEqual(['rr-a1']);
    conforms('GET', MONITORING_ROOMS_PATH, await (await running.client()).get(MONITORING_ROOMS_PATH));
  });

  it('alert history and night summary: a page, filters refused, another tenant’s room like a missing one, signed out', async () => {
    const staff = await running.client('staff@example.com');
    const outsider = await running.client();
    const page = conforms('GET', ALERT_HISTORY_PATH, await staff.get(`${ALERT_HISTORY_PATH}?from=2026-11-19T00:00:00Z&to=2026-11-22T00:00:00Z`));
    expect((page.body as { rows: { id: string }[] }).rows.map((row) => row.id)).toEqual(['rr-alert-a']);
    conforms('GET', ALERT_HISTORY_PATH, await staff.get(`${ALERT_HISTORY_PATH}?limit=1&cursor=rr-alert-a`));
    conforms('GET', ALERT_HISTORY_PATH, await staff.get(`${ALERT_HISTORY_PATH}?limit=0`));
    expect(conforms('GET', ALERT_HISTORY_PATH, await staff.get(`${ALERT_HISTORY_PATH}?roomId=rr-o1`)).status).toBe(404);
    expect(conforms('GET', ALERT_HISTORY_PATH, await staff.get(`${ALERT_HISTORY_PATH}?roomId=rr-none`)).status).toBe(404);
    conforms('GET', ALERT_HISTORY_PATH, await outsider.get(ALERT_HISTORY_PATH));

    const night = conforms('GET', NIGHT_SUMMARY_PATH, await staff.get(`${NIGHT_SUMMARY_PATH}?day=2026-11-20`));
    expect(night.status).toBe(200);
    conforms('GET', NIGHT_SUMMARY_PATH, await staff.get(`${NIGHT_SUMMARY_PATH}?day=2026-11-20&roomId=rr-a1`));
    conforms('GET', NIGHT_SUMMARY_PATH, await staff.get(`${NIGHT_SUMMARY_PATH}?day=20261120`));
    expect(conforms('GET', NIGHT_SUMMARY_PATH, await staff.get(`${NIGHT_SUMMARY_PATH}?day=2026-11-20&roomId=rr-o1`)).status).toBe(404);
    conforms('GET', NIGHT_SUMMARY_PATH, await outsider.get(NIGHT_SUMMARY_PATH));
  });

  it('covered the success answers and logged no answer off its schema', () => {
    const labels = [...running.seen];
    for (const expected of [
      'POST /api/devices/{serial}/registration 200',
      'POST /api/devices/{serial}/secret 200',
      'PUT /api/devices/{serial}/room 200',
      'DELETE /api/devices/{serial}/room 200',
      `GET ${MONITORING_ROOMS_PATH} 200`,
      `GET ${ALERT_HISTORY_PATH} 200`,
      `GET ${NIGHT_SUMMARY_PATH} 200`,
    ])
      expect(labels).toContain(expected);
    expect(running.offSchemaLines()).toEqual([]);
  });
});
