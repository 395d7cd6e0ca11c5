/**
 * Master data writes through the document engine (/api/documents), which enforces the level (101
 * to write) and the schemas; these helpers only keep a create from replacing a record of the same id.
 */
import type { Data } from '@nemuri/shared/documents/update';
import type { DocumentsClient } from '../../../lib/documents/client.ts';
import { documents } from '../../../lib/documents/documents.ts';
import { RecordExists } from '../serverRefusal.ts';

type Client = Pick<DocumentsClient, 'set' | 'update' | 'remove'>;

/**
 * Creates the record; refuses (RecordExists) when its id is among `takenIds` (the ids of the live
 * list the screen shows, which holds the whole collection), so that a create never replaces another
 * record. The list rather than a read: a read of a missing record is a 404 the browser logs as an error.
 */
export async function createRecord(path: string, data: Data, takenIds: readonly string[], client: Client = documents): Promise<void> {
  const id = path.split('/').pop() ?? '';
  if (takenIds.includes(id)) throw new RecordExists(path);
  await client.set(path, data);
}

/** Replaces the record with the form's fields (fields the form left empty are gone). */
export async function replaceRecord(path: string, data: Data, client: Client = documents): Promise<void> {
  await client.set(path, data);
}

/**
 * Changes the form's fields and keeps the others (a view's layout, a device type's calibration);
 * an optional field left empty is removed (`undefined`).
 */
export async function updateRecord(path: string, data: Data, client: Client = documents): Promise<void> {
  await client.update(path, data);
}

export async function deleteRecord(path: string, client: Client = documents): Promise<void> {
  await client.remove(path);
}
