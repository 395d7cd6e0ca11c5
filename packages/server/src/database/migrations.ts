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
    // a frame (since 011, a row per write, device, channel and minute), before the device's MQTT message is acknowledged; a compactor then moves complete
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
  {
    // Notifications of alerts to staff away from the station (notifications/, docs/architecture.md
    // "Notifications"): the durable delivery queue, every attempt, escalation per alert, push
    // subscriptions, each person's preferences, each domain's settings and on-duty schedule.
    id: '008_notifications',
    sql: `
      create table notify_queue (
        id bigserial primary key,
        alert_id text collate "C" not null,
        step integer not null,
        recipient text collate "C" not null,
        channel text not null,
        destination text collate "C" not null default '',
        domain_id text collate "C" not null,
        payload jsonb not null,
        status text not null default 'queued',
        attempts integer not null default 0,
        next_attempt_at timestamptz not null default now(),
        lease_until timestamptz,
        leased_by text,
        last_error text,
        summary_id bigint,
        created_at timestamptz not null default now(),
        sent_at timestamptz,
        unique (alert_id, step, recipient, channel, destination)
      );
      create index notify_queue_due on notify_queue (next_attempt_at, id) where status in ('queued', 'sending');
      create index notify_queue_recipient on notify_queue (recipient, channel, sent_at) where status = 'sent';
      create index notify_queue_held on notify_queue (recipient, channel, id) where status = 'held';
      create index notify_queue_domain on notify_queue (domain_id, id);
      create table notify_attempts (
        id bigserial primary key,
        queue_id bigint not null references notify_queue (id) on delete cascade,
        domain_id text collate "C" not null,
        channel text not null,
        attempt integer not null,
        at timestamptz not null default now(),
        ok boolean not null,
        status_code integer,
        error text,
        duration_ms integer not null
      );
      create index notify_attempts_domain on notify_attempts (domain_id, id);
      create index notify_attempts_queue on notify_attempts (queue_id);
      create table notify_escalations (
        alert_id text collate "C" primary key,
        domain_id text collate "C" not null,
        room_id text collate "C",
        alert_type text not null,
        opened_at timestamptz not null,
        next_step integer not null default 0,
        next_step_at timestamptz,
        closed_at timestamptz,
        closed_reason text
      );
      create index notify_escalations_due on notify_escalations (next_step_at) where closed_at is null;
      create table notify_escalation_steps (
        alert_id text collate "C" not null references notify_escalations (alert_id) on delete cascade,
        step integer not null,
        target text not null,
        at timestamptz not null default now(),
        recipients integer not null,
        primary key (alert_id, step)
      );
      create table notify_push_subscriptions (
        id text collate "C" primary key,
        user_id text collate "C" not null,
        endpoint text not null unique,
        p256dh text not null,
        auth text not null,
        label text,
        created_at timestamptz not null default now(),
        last_success_at timestamptz,
        failures integer not null default 0
      );
      create index notify_push_subscriptions_user on notify_push_subscriptions (user_id);
      create table notify_preferences (
        user_id text collate "C" primary key,
        preferences jsonb not null,
        updated_at timestamptz not null default now()
      );
      create table notify_domain_settings (
        domain_id text collate "C" primary key,
        settings jsonb not null,
        line_token text,
        webhook_secret text,
        updated_at timestamptz not null default now()
      );
      create table notify_shifts (
        domain_id text collate "C" not null,
        day date not null,
        shift text not null,
        assignments jsonb not null,
        updated_by text,
        updated_at timestamptz not null default now(),
        primary key (domain_id, day, shift)
      );
      create index documents_alerts_open on documents ((data ->> 'startedAt')) where collection = 'alerts';
    `,
  },
  {
    id: '009_integration_api_keys',
    sql: `
      create table integration_api_keys (
        id text collate "C" primary key,
        domain_id text collate "C" not null,
        root_domain_id text collate "C",
        name text not null,
        scopes jsonb not null,
        secret_hash text not null,
        created_by text collate "C" not null,
        created_at timestamptz not null default now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      );
      create index integration_api_keys_domain on integration_api_keys (domain_id, created_at desc);
    `,
  },
  {
    // The alert open for each room and type (monitoring/roomStateService.ts): its primary key lets
    // one server process open it, so that processes sharing the database (docs/scaling.md) open an
    // alert once, and a process that takes a room over from another continues its open alerts.
    // Seeded with the open alerts of rooms, the newest of each room and type.
    id: '010_monitoring_open_alerts',
    sql: `
      create table monitoring_open_alerts (
        room_id text collate "C" not null,
        type text collate "C" not null,
        alert_id text collate "C" not null,
        opened_at timestamptz not null default now(),
        primary key (room_id, type)
      );
      insert into monitoring_open_alerts (room_id, type, alert_id)
        select distinct on (data ->> 'roomId', data ->> 'type') data ->> 'roomId', data ->> 'type', id
          from documents
         where collection = 'alerts' and coalesce(data ->> 'endedAt', '') = ''
           and coalesce(data ->> 'roomId', '') <> '' and coalesce(data ->> 'type', '') <> ''
         order by data ->> 'roomId', data ->> 'type', data ->> 'startedAt' desc;
    `,
  },
  {
    // A staging row holds the frames one write carries of a device, channel and minute, concatenated
    // (signals/signalStore.ts): on PGlite a row costs about 20 µs of the one database thread whatever
    // its size, so a device sending its backlog costs a row per write instead of one per frame.
    // start_us is the row's first frame, last_start_us its last (both in the same minute; null, as in
    // a row written before this migration or by a process not yet upgraded, is a row of one frame);
    // seq is its first frame's sequence (each frame's own is in its header).
    id: '011_staging_rows_of_frames',
    sql: `
      alter table signal_frames_pending add column frame_count integer not null default 1;
      alter table signal_frames_pending add column last_start_us bigint;
    `,
  },
];
