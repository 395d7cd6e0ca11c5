/**
 * The schema, as an ordered list of migrations. Append new ones at the end with the next number;
 * never edit or reorder one that has shipped (a database records the ids it has applied).
 */
export interface Migration {
  /** `NNN_what_it_does`, ascending. */
  id: string;
  /** One or more statements; runs in one transaction. Must work on PGlite and PostgreSQL alike. */
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    id: '001_app_meta',
    sql: `
      create table app_meta (
        key text primary key,
        value jsonb not null,
        updated_at timestamptz not null default now()
      );
    `,
  },
  {
    id: '002_dev_outbox',
    sql: `
      create table dev_outbox (
        id serial primary key,
        recipient text not null,
        subject text not null,
        body text not null,
        created_at timestamptz not null default now()
      );
    `,
  },
  {
    // The document engine (documents/store.ts): every collection of the registry in one JSONB
    // table. See documents/store.ts for why.
    id: '003_documents',
    sql: `
      create table documents (
        path text collate "C" primary key,
        collection text collate "C" not null,
        collection_group text not null,
        parent_path text collate "C" not null,
        id text collate "C" not null,
        data jsonb not null,
        version integer not null default 1,
        domain_id text,
        root_domain_id text,
        room_id text,
        created_at timestamptz not null,
        updated_at timestamptz not null
      );
      create index documents_collection on documents (collection, path);
      create index documents_group on documents (collection_group, path);
      create index documents_group_domain on documents (collection_group, domain_id);
      create index documents_group_root_domain on documents (collection_group, root_domain_id);
      create index documents_group_room on documents (collection_group, room_id);
    `,
  },
  {
    // Raw signals (ingest/ and signals/): frames are first appended to signal_frames_pending, one row
    // a frame, before the device's MQTT message is acknowledged; a compactor then moves complete
    // minutes into signal_chunks, one row per device, channel and minute holding the gzip-compressed
    // concatenated SMF frames (several gzip members when late frames were appended). See
    // docs/architecture.md, "Raw signal storage".
    id: '004_signal_chunks',
    sql: `
      create table signal_frames_pending (
        id bigserial primary key,
        serial text collate "C" not null,
        channel text not null,
        start_us bigint not null,
        seq bigint not null,
        frame bytea not null,
        domain_id text,
        root_domain_id text,
        received_at timestamptz not null default now()
      );
      create index signal_frames_pending_time on signal_frames_pending (start_us);
      create index signal_frames_pending_device on signal_frames_pending (serial, channel, start_us);
      create table signal_chunks (
        serial text collate "C" not null,
        channel text not null,
        minute timestamptz not null,
        frames bytea not null,
        frame_count integer not null,
        first_seq bigint not null,
        last_seq bigint not null,
        domain_id text,
        root_domain_id text,
        updated_at timestamptz not null default now(),
        primary key (serial, channel, minute)
      );
      create index signal_chunks_minute on signal_chunks (minute);
      create index signal_chunks_root_domain on signal_chunks (root_domain_id, minute);
    `,
  },
  {
    // A level-1 user's scope is the rooms naming them as owner or report viewer: found through
    // these instead of reading every room on each request.
    id: '005_room_people_indexes',
    sql: `
      create index documents_room_owners on documents using gin ((data -> 'ownerUids')) where collection = 'rooms';
      create index documents_room_report_viewers on documents using gin ((data -> 'reportViewerUids')) where collection = 'rooms';
    `,
  },
  {
    // The profile fields of /account-info that Better Auth does not keep (account/accountPlugin.ts).
    id: '006_account_profiles',
    sql: `
      create table account_profiles (
        user_id text primary key,
        phone_number text,
        photo bytea,
        photo_type text,
        photo_version text,
        updated_at timestamptz not null default now()
      );
    `,
  },
  {
    // References into another tenant written before the engine checked them (security issue 17,
    // findings 3 and 9): a room naming a device of another domain lets go of it, and an alert
    // naming a room of another domain is removed (only a caller could have forged it).
    id: '007_cross_tenant_references',
    sql: `
      update documents room set data = room.data - 'deviceSerial', version = room.version + 1, updated_at = now()
        where room.collection = 'rooms' and coalesce(room.data ->> 'deviceSerial', '') <> ''
          and exists (select 1 from documents device where device.path = 'devices/' || (room.data ->> 'deviceSerial')
                        and device.domain_id is distinct from room.domain_id);
      delete from documents alert
        where alert.collection = 'alerts' and coalesce(alert.data ->> 'roomId', '') <> ''
          and exists (select 1 from documents room where room.path = 'rooms/' || (alert.data ->> 'roomId')
                        and room.domain_id is distinct from alert.domain_id);
    `,
  },
];
