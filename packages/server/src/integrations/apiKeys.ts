/**
 * Integration API keys, stored (table `integration_api_keys`, migration 009). A key is
 * `nmk_<id>_<secret>`: the id finds the row, the secret (256 random bits) is kept only as its
 * SHA-256 and compared in constant time. A high-entropy secret needs no slow hash: nobody can
 * guess one, and a stolen table does not give a usable key (OWASP, "Secrets Management", API keys).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  API_KEY_PAGE_SIZE,
  API_KEY_PATTERN,
  API_KEY_PREFIX,
  API_KEY_SCOPES,
  MAX_ACTIVE_KEYS_PER_DOMAIN,
  type ApiKeyScope,
  type ApiKeyView,
} from '@nemuri/shared/integrations';
import type { Queryable } from '../database/database.ts';

interface KeyRow {
  id: string;
  domain_id: string;
  root_domain_id: string | null;
  name: string;
  scopes: unknown;
  secret_hash: string;
  created_by: string;
  created_at: Date | string;
  last_used_at: Date | string | null;
  revoked_at: Date | string | null;
}

/** What a presented key stands for: its domain and scopes. */
export interface ResolvedApiKey {
  id: string;
  domainId: string;
  rootDomainId: string | null;
  scopes: ApiKeyScope[];
}

const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function newKeyId(): string {
  // 16 characters of 62: rejection sampling keeps them uniform.
  let id = '';
  while (id.length < 16) {
    for (const byte of randomBytes(32)) {
      if (byte < 248 && id.length < 16) id += ID_ALPHABET[byte % 62];
    }
  }
  return id;
}

function hashOf(secret: string): Buffer {
  return createHash('sha256').update(secret, 'utf8').digest();
}

function iso(value: Date | string | null): string | null {
  return value === null ? null : new Date(value).toISOString();
}

function scopesOf(stored: unknown): ApiKeyScope[] {
  const list: unknown = typeof stored === 'string' ? JSON.parse(stored) : stored;
  return Array.isArray(list) ? API_KEY_SCOPES.filter((scope) => list.includes(scope)) : [];
}

function viewOf(row: KeyRow): ApiKeyView {
  return {
    id: row.id,
    domainId: row.domain_id,
    name: row.name,
    scopes: scopesOf(row.scopes),
    createdBy: row.created_by,
    createdAt: iso(row.created_at) ?? '',
    lastUsedAt: iso(row.last_used_at),
    revokedAt: iso(row.revoked_at),
  };
}

/** Splits a presented `nmk_…` key; null when it is not one. */
export function parseApiKey(presented: string): { id: string; secret: string } | null {
  const match = API_KEY_PATTERN.exec(presented);
  return match === null ? null : { id: match[1] ?? '', secret: match[2] ?? '' };
}

/** The key in an `Authorization: Bearer nmk_…` header; null when the header carries none (other bearer tokens, e.g. /metrics', pass). */
export function presentedApiKey(authorization: string | undefined): string | null {
  if (authorization === undefined) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const token = match?.[1];
  return token !== undefined && token.startsWith(API_KEY_PREFIX) ? token : null;
}

export class ApiKeyStore {
  constructor(private readonly database: Queryable) {}

  /** A new key for the domain; its secret is in the answer only. null when the domain holds its maximum of active keys. */
  async create(input: {
    domainId: string;
    rootDomainId: string | null;
    name: string;
    scopes: readonly ApiKeyScope[];
    createdBy: string;
  }): Promise<{ key: ApiKeyView; secret: string } | null> {
    const id = newKeyId();
    const secret = randomBytes(32).toString('base64url');
    const scopes = API_KEY_SCOPES.filter((scope) => input.scopes.includes(scope));
    // One statement: the count and the insert cannot be split by a concurrent creation's.
    const { rows } = await this.database.query<KeyRow>(
      `insert into integration_api_keys (id, domain_id, root_domain_id, name, scopes, secret_hash, created_by)
       select $1, $2, $3, $4, $5::jsonb, $6, $7
       where (select count(*) from integration_api_keys where domain_id = $2 and revoked_at is null) < $8
       returning *`,
      [id, input.domainId, input.rootDomainId, input.name, JSON.stringify(scopes), hashOf(secret).toString('hex'), input.createdBy, MAX_ACTIVE_KEYS_PER_DOMAIN],
    );
    const row = rows[0];
    return row === undefined ? null : { key: viewOf(row), secret: `${API_KEY_PREFIX}${id}_${secret}` };
  }

  async list(domainId: string, page: number): Promise<{ keys: ApiKeyView[]; total: number }> {
    const [{ rows }, counted] = await Promise.all([
      this.database.query<KeyRow>('select * from integration_api_keys where domain_id = $1 order by created_at desc, id limit $2 offset $3', [
        domainId,
        API_KEY_PAGE_SIZE,
        page * API_KEY_PAGE_SIZE,
      ]),
      this.database.query<{ total: number | string }>('select count(*) as total from integration_api_keys where domain_id = $1', [domainId]),
    ]);
    return { keys: rows.map(viewOf), total: Number(counted.rows[0]?.total ?? 0) };
  }

  /** Revokes the domain's key; null when the domain has no such key. Revoking twice keeps the first time. */
  async revoke(domainId: string, keyId: string): Promise<ApiKeyView | null> {
    const { rows } = await this.database.query<KeyRow>(
      'update integration_api_keys set revoked_at = coalesce(revoked_at, now()) where domain_id = $1 and id = $2 returning *',
      [domainId, keyId],
    );
    const row = rows[0];
    return row === undefined ? null : viewOf(row);
  }

  /** The active key this presented string is; null for anything else (unknown, revoked, wrong secret). */
  async resolve(presented: string): Promise<ResolvedApiKey | null> {
    const parts = parseApiKey(presented);
    if (parts === null) return null;
    const { rows } = await this.database.query<KeyRow>('select * from integration_api_keys where id = $1 and revoked_at is null', [parts.id]);
    const row = rows[0];
    if (row === undefined) return null;
    const stored = Buffer.from(row.secret_hash, 'hex');
    const given = hashOf(parts.secret);
    if (stored.length !== given.length || !timingSafeEqual(stored, given)) return null;
    // At most one write a minute per key: "last used" is for people reviewing keys, not an audit trail.
    await this.database.query(
      "update integration_api_keys set last_used_at = now() where id = $1 and (last_used_at is null or last_used_at < now() - interval '1 minute')",
      [row.id],
    );
    return { id: row.id, domainId: row.domain_id, rootDomainId: row.root_domain_id, scopes: scopesOf(row.scopes) };
  }
}
