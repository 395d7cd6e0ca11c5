/**
 * Record types from the collection registry (packages/shared/src/documents/collections.ts): a
 * record is its collection's stored fields plus the common fields the server sets. Paths and
 * queries written as literals give their record type by themselves:
 * `RecordAt<'rooms/r1/sleeps/2026-01-02'>` is `RecordOf<'rooms/sleeps'>`; a path only known at
 * run time (`string`) gives plain `Data`.
 */
import type { z } from 'zod/v3';
import type { CollectionName, SCHEMAS } from '@nemuri/shared/documents/collections';
import type { Direction, FilterOperator, Query } from '@nemuri/shared/documents/query';
import type { Data } from '@nemuri/shared/documents/update';

export type { CollectionName };

/** Set by the server on every record read (PRODUCT.md section 5). */
export interface CommonFields {
  documentReferenceId: string;
  documentPath: string;
  /** ISO 8601. */
  createdAt: string;
  updatedAt: string;
}

/** A record of a collection not known from the types: whatever fields it has, and the common ones. */
export type AnyRecord = Data & CommonFields;

/** A record of the collection with this registry name, e.g. `RecordOf<'rooms'>`. */
export type RecordOf<Name extends CollectionName> = z.infer<(typeof SCHEMAS)[Name]> & CommonFields;

/** The fields a caller writes to a collection (no common fields). */
export type FieldsOf<Name extends CollectionName> = z.infer<(typeof SCHEMAS)[Name]>;

type Segments<Path extends string> = Path extends `${infer Head}/${infer Rest}` ? [Head, ...Segments<Rest>] : [Path];

/** Every other segment from the first: the collection ids of a path. */
type CollectionIds<Parts extends string[]> = Parts extends [infer Id extends string, string, ...infer Rest extends string[]]
  ? Rest extends []
    ? Id
    : `${Id}/${CollectionIds<Rest>}`
  : Parts extends [infer Id extends string]
    ? Id
    : never;

/** The registry name of a document or collection path: `rooms/r1/sleeps` → `rooms/sleeps`. */
export type CollectionNameOf<Path extends string> = string extends Path ? never : CollectionIds<Segments<Path>>;

/** The record at a document path (or in a collection path); `Data` when the path is not a literal. */
export type RecordAt<Path extends string> = string extends Path
  ? AnyRecord
  : CollectionNameOf<Path> extends infer Name extends CollectionName
    ? RecordOf<Name>
    : AnyRecord;

/**
 * A query as callers may write it: `Query`, or the same read-only (a query kept in a constant
 * `as const`).
 */
export type QueryInput =
  | Query
  | {
      readonly collection: string;
      readonly collectionGroup?: boolean;
      readonly where?: readonly (readonly [string, FilterOperator, unknown])[];
      readonly orderBy?: readonly (readonly [string, Direction?])[];
      readonly limit?: number;
      readonly limitToLast?: number;
      readonly startAfter?: readonly unknown[] | { readonly document: string };
    };

/** The records a query returns: by its collection path, or by its collection id for a group. */
export type RecordOfQuery<Q extends QueryInput> = Q extends { collectionGroup: true; collection: infer Group extends string }
  ? Group extends `${string}/${string}`
    ? AnyRecord
    : { [Name in CollectionName]: Name extends Group | `${string}/${Group}` ? RecordOf<Name> : never }[CollectionName]
  : RecordAt<Q['collection']>;

/**
 * A caller's explicit record type, or else the inferred one: `documents.get<Room>(path)` and
 * `documents.get('rooms/r1')` both type their result.
 */
export type Chosen<Explicit, Inferred> = [Explicit] extends [never] ? Inferred : Explicit;
