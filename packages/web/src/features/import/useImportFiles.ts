/**
 * The files chosen for import, each previewed in the browser, matched to a room, then uploaded one
 * after another with its progress. A room page fixes the room; the bulk import matches rooms by the
 * device serial the file carries (or its name), and the user may choose another.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { loadDeviceParser } from '../../lib/deviceParser.ts';
import { previewFile, type PreviewResult } from './filePreview.ts';
import { uploadFile, type UploadAnswer } from './api/uploadFile.ts';

export type UploadState = { state: 'idle' } | { state: 'uploading'; progress: number } | { state: 'answered'; answer: UploadAnswer };

export interface ImportFile {
  key: string;
  file: File;
  preview: PreviewResult | null;
  /** The room the page fixes or the user chose; null: the room matched by serial, if any. */
  chosenRoomId: string | null;
  /** The user chose to import without the columns the preview could not read. */
  skipProblemColumns: boolean;
  upload: UploadState;
}

export interface RoomChoice {
  id: string;
  name: string;
  deviceSerial?: string | null | undefined;
}

/** The room a file goes to: the one chosen, else the room whose device made the recording. */
export function roomOf(item: ImportFile, rooms: readonly RoomChoice[]): { roomId: string; by: 'chosen' | 'serial' } | null {
  if (item.chosenRoomId !== null) return { roomId: item.chosenRoomId, by: 'chosen' };
  const serial = item.preview?.ok ? item.preview.preview.deviceSerial : null;
  const match = serial === null ? undefined : rooms.find((room) => room.deviceSerial === serial);
  return match ? { roomId: match.id, by: 'serial' } : null;
}

/** Columns the preview could not read (the file waits for the user's choice). */
export function problemColumns(item: ImportFile): number {
  return item.preview?.ok === true ? item.preview.preview.columns.filter((column) => column.status === 'problem').length : 0;
}

/** Previewed without a problem (or the user chose to skip the columns it could not read), with a room, and not sent yet (or lost on the way). */
export function ready(item: ImportFile, rooms: readonly RoomChoice[]): boolean {
  const answered = item.upload.state === 'answered' ? item.upload.answer.kind : null;
  return (
    item.preview?.ok === true &&
    (problemColumns(item) === 0 || item.skipProblemColumns) &&
    roomOf(item, rooms) !== null &&
    (item.upload.state === 'idle' || answered === 'network' || answered === 'aborted')
  );
}

let keys = 0;

export function useImportFiles({ roomId, rooms = [] }: { roomId?: string; rooms?: readonly RoomChoice[] }) {
  const [files, setFiles] = useState<ImportFile[]>([]);
  const [busy, setBusy] = useState(false);
  const latest = useRef({ files, rooms });
  const abortRef = useRef<(() => void) | null>(null);
  useEffect(() => {
    latest.current = { files, rooms };
  });

  const patch = useCallback(
    (key: string, change: Partial<ImportFile>) => setFiles((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item))),
    [],
  );

  const add = useCallback(
    (chosen: readonly File[]) => {
      const added: ImportFile[] = chosen.map((file) => ({
        key: `f${++keys}`,
        file,
        preview: null,
        chosenRoomId: roomId ?? null,
        skipProblemColumns: false,
        upload: { state: 'idle' },
      }));
      setFiles((list) => [...list, ...added]);
      void (async () => {
        const parser = await loadDeviceParser();
        for (const item of added) {
          const preview = await previewFile(item.file, parser).catch((error: unknown): PreviewResult => ({
            ok: false,
            reason: 'corrupt',
            detail: error instanceof Error ? error.message : String(error),
          }));
          patch(item.key, { preview });
        }
      })();
    },
    [roomId, patch],
  );

  const remove = useCallback((key: string) => setFiles((list) => list.filter((item) => item.key !== key)), []);
  const chooseRoom = useCallback((key: string, chosen: string | null) => patch(key, { chosenRoomId: chosen }), [patch]);
  const chooseSkip = useCallback((key: string, skip: boolean) => patch(key, { skipProblemColumns: skip }), [patch]);

  /** Uploads every ready file, one at a time. */
  const uploadAll = useCallback(async () => {
    setBusy(true);
    try {
      const { files: current, rooms: choices } = latest.current;
      for (const item of current.filter((entry) => ready(entry, choices))) {
        const target = roomOf(item, choices);
        if (target === null) continue;
        patch(item.key, { upload: { state: 'uploading', progress: 0 } });
        const handle = uploadFile(
          target.roomId,
          item.file,
          (progress) => patch(item.key, { upload: { state: 'uploading', progress } }),
          item.skipProblemColumns ? 'skip' : 'refuse',
        );
        abortRef.current = handle.abort;
        const answer = await handle.done;
        patch(item.key, { upload: { state: 'answered', answer }, chosenRoomId: target.roomId });
        if (answer.kind === 'aborted') break;
      }
    } finally {
      abortRef.current = null;
      setBusy(false);
    }
  }, [patch]);

  const cancel = useCallback(() => abortRef.current?.(), []);
  const clearFinished = useCallback(
    () => setFiles((list) => list.filter((item) => item.upload.state !== 'answered' || ['network', 'aborted'].includes(item.upload.answer.kind))),
    [],
  );

  return { files, busy, add, remove, chooseRoom, chooseSkip, uploadAll, cancel, clearFinished, readyCount: files.filter((item) => ready(item, rooms)).length };
}
