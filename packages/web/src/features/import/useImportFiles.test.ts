/** Which chosen files can be sent: a CSV with a column the preview could not read waits for the user's choice. */
import { describe, expect, it } from 'vitest';
import type { ReadColumn } from '@nemuri/shared/imports';
import { problemColumns, ready, roomOf, type ImportFile } from './useImportFiles.ts';

const column = (name: string, status: ReadColumn['status']): ReadColumn => ({
  name,
  as: null,
  status,
  reason: status === 'problem' ? 'unknown' : null,
  values: 60,
});

function file(columns: ReadColumn[], change: Partial<ImportFile> = {}): ImportFile {
  return {
    key: 'f1',
    file: new File(['x'], 'night.csv'),
    preview: { ok: true, preview: { format: 'csv', columns, start: null, durationSec: 3600, deviceSerial: null, stageEpochs: 0, units: 60 } },
    chosenRoomId: 'room-1',
    skipProblemColumns: false,
    upload: { state: 'idle' },
    ...change,
  };
}

describe('ready to send', () => {
  it('holds back a file with columns it cannot read until the user chooses to skip them', () => {
    const held = file([column('時刻', 'read'), column('体温(℃)', 'problem'), column('メモ', 'problem')]);
    expect(problemColumns(held)).toBe(2);
    expect(ready(held, [])).toBe(false);
    expect(ready({ ...held, skipProblemColumns: true }, [])).toBe(true);
  });

  it('sends a file whose columns are all read, context or skipped by rule', () => {
    expect(ready(file([column('時刻', 'read'), column('部屋', 'context'), column('', 'skipped')]), [])).toBe(true);
  });

  it('needs a room and a preview that worked, and is not sent twice', () => {
    const columns = [column('時刻', 'read')];
    expect(ready(file(columns, { chosenRoomId: null }), [])).toBe(false);
    expect(roomOf(file(columns, { chosenRoomId: null }), [{ id: 'r', name: 'R', deviceSerial: null }])).toBeNull();
    expect(ready(file(columns, { preview: { ok: false, reason: 'corrupt', detail: 'Line 2' } }), [])).toBe(false);
    expect(ready(file(columns, { upload: { state: 'answered', answer: { kind: 'created', uploadId: 'u' } } }), [])).toBe(false);
    expect(ready(file(columns, { upload: { state: 'answered', answer: { kind: 'network' } } }), [])).toBe(true);
  });
});
