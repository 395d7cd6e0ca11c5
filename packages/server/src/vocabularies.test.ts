// Each vocabulary is defined once (signal channels and raw views in @nemuri/shared, the SMF wire layout in
// @nemuri/parser); this test fails when a copy that cannot import them (the WebAssembly parser, the
// protocol document, the demo master data) drifts away.
import { readFileSync } from 'node:fs';
import { createParserSync } from '@nemuri/parser/node';
import { SMF_CHANNEL_CODES, SMF_CHANNELS, SMF_HEADER_OFFSETS, SMF_HEADER_SIZE, type SmfSampleChannel } from '@nemuri/parser/smf';
import { RAW_VIEW_KEYS, RAW_VIEWS, ROOM_VIEW_KEYS, VIEW_OF_ROUTE } from '@nemuri/shared/rawViews';
import { ALL_ROUTES } from '@nemuri/shared/routeAccess';
import { SIGNAL_CHANNELS, type SignalChannel } from '@nemuri/shared/signalChannels';
import { SIMULATED_CHANNELS } from '@nemuri/simulator/frames';
import { describe, expect, it } from 'vitest';
import { DEVICE_TYPES, viewRecords } from './demo/demoMasterData.ts';

// Compile-time: the parser's sample channels and the shared vocabulary are the same union.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameChannels: Same<SmfSampleChannel, SignalChannel> = true;

const protocol = readFileSync(new URL('../../../docs/device-protocol.md', import.meta.url), 'utf8');

describe('one definition of each vocabulary', () => {
  it('signal channels: the shared list is the parser wire table without multi, in code order', () => {
    expect(sameChannels).toBe(true);
    expect(SMF_CHANNELS.filter((channel) => channel !== 'multi')).toEqual([...SIGNAL_CHANNELS]);
    expect(SIGNAL_CHANNELS.map((channel) => SMF_CHANNEL_CODES[channel])).toEqual(SIGNAL_CHANNELS.map((_, index) => index + 1));
    for (const channel of SIMULATED_CHANNELS) expect(SIGNAL_CHANNELS).toContain(channel);
  });

  it('signal channels: the protocol document lists each with its code', () => {
    for (const channel of SMF_CHANNELS) expect(protocol, channel).toMatch(new RegExp(`\\|\\s*${SMF_CHANNEL_CODES[channel]}\\s*\\|\\s*\`?${channel}\`?\\s*\\|`));
  });

  it('SMF header layout: the offsets read what the WebAssembly encoder wrote, and the document states them', () => {
    const parser = createParserSync();
    const bytes = parser.encodeSmfFrame({
      channel: 'respiAxl',
      format: 'int16',
      sequence: 0xfedcba98,
      startTimeUs: 1_700_000_000_123_456,
      sampleRate: 50,
      scale: 0.5,
      offset: 2,
      raw: [1, 2, 3, 4, 5, 6],
    });
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const at = SMF_HEADER_OFFSETS;
    expect([...bytes.subarray(at.magic, at.magic + 4)]).toEqual([0x89, 0x53, 0x4d, 0x46]);
    expect(view.getUint8(at.version)).toBe(1);
    expect(view.getUint8(at.channel)).toBe(SMF_CHANNEL_CODES.respiAxl);
    expect(view.getUint8(at.sampleFormat)).toBe(1);
    expect(view.getUint8(at.flags)).toBe(0);
    expect(view.getUint16(at.width, true)).toBe(3);
    expect(view.getUint32(at.sequence, true)).toBe(0xfedcba98);
    expect(Number(view.getBigInt64(at.startTimeUs, true))).toBe(1_700_000_000_123_456);
    expect(view.getFloat32(at.sampleRate, true)).toBe(50);
    expect(view.getUint32(at.sampleCount, true)).toBe(2);
    expect(view.getFloat32(at.scale, true)).toBe(0.5);
    expect(view.getFloat32(at.offset, true)).toBe(2);
    expect(view.getUint32(at.payloadLength, true)).toBe(12);
    expect(bytes.byteLength).toBe(SMF_HEADER_SIZE + 12 + 4);
    const table = protocol.slice(protocol.indexOf('## Frame layout'));
    for (const offset of Object.values(at)) expect(table, `offset ${offset}`).toMatch(new RegExp(`^\\|\\s*${offset}\\s*\\|`, 'm'));
  });

  it('raw views: every view has its device route, room views have theirs, and each view draws known channels', () => {
    const devicePaths = ALL_ROUTES.filter((route) => route.fullPath.startsWith('/monitoring-device/raw-')).map((route) =>
      route.fullPath.slice('/monitoring-device/'.length),
    );
    expect([...devicePaths].sort()).toEqual([...RAW_VIEW_KEYS].sort());
    expect(ROOM_VIEW_KEYS.length).toBeGreaterThan(0);
    for (const key of ROOM_VIEW_KEYS) expect(Object.values(VIEW_OF_ROUTE)).toContain(key);
    for (const key of RAW_VIEW_KEYS) {
      const view = RAW_VIEWS[key];
      for (const channel of view.channels) expect(SIGNAL_CHANNELS).toContain(channel);
      expect(view.windowChoices).toContain(view.defaultWindowSec);
    }
  });

  it('raw views: the demo master records and device types are written from the shared definition', () => {
    const records = new Map(viewRecords());
    for (const key of RAW_VIEW_KEYS) {
      const record = records.get(`views/${key}`) as { channels: string[]; name: string; layout: { secondsShown: number } };
      expect(record.channels, key).toEqual([...RAW_VIEWS[key].channels]);
      expect(record.name).toBe(RAW_VIEWS[key].name);
      expect(record.layout.secondsShown).toBe(RAW_VIEWS[key].defaultWindowSec);
    }
    for (const type of Object.values(DEVICE_TYPES)) {
      for (const view of type.rawViews as string[]) expect(RAW_VIEW_KEYS).toContain(view);
      for (const channel of type.channels as { key: string }[]) expect(SIGNAL_CHANNELS).toContain(channel.key);
    }
  });
});
