import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { NoStoreError } from './errors';
import { canonicalJson, type RecordsStorage } from './records';

/**
 * What a store is, asked of the store itself, never read from the URL that reached it (`localhost` or
 * `127.0.0.1`, `-` or `_`): whether two URLs reach one store, and how far a copy from it has gone.
 */
export interface StoreIdentity {
  /** A random id the store keeps in itself from its creation (a copy made by other means, a restored backup, has it too). */
  id: string;
  /** Postgres: where it is, the server's `system_identifier`, the database and the schema. */
  place?: string;
}

/** The keyed record that holds the id, written once when the store is created; it is never copied to another store. */
export const IDENTITY_RECORD = { kind: 'store', key: 'identity' } as const;

const IdentitySchema = z.object({ id: z.string().min(1), createdAt: z.string() });

/** The identity record of a store being created now. */
export function newIdentityText(): string {
  return canonicalJson({ id: randomUUID(), createdAt: new Date().toISOString() });
}

/** The id an identity record holds; undefined when there is none (no store there). */
export function identityIdOf(text: string | undefined): string | undefined {
  return text === undefined ? undefined : IdentitySchema.parse(JSON.parse(text)).id;
}

/** One store (the same id: the same store, or a copy of it made by other means), or one place. */
export function sameStore(a: StoreIdentity, b: StoreIdentity): boolean {
  return a.id === b.id || (a.place !== undefined && a.place === b.place);
}

export function describeIdentity(identity: StoreIdentity): string {
  return `store ${identity.id}${identity.place === undefined ? '' : ` (${identity.place})`}`;
}

/** The identity kept in a store's records; NoStoreError when there is none. */
export async function identityIn(records: Pick<RecordsStorage, 'get'>, where: string): Promise<StoreIdentity> {
  const id = identityIdOf(await records.get(IDENTITY_RECORD.kind, IDENTITY_RECORD.key));
  if (id === undefined) throw new NoStoreError(`${where} holds no store under this namespace`);
  return { id };
}
