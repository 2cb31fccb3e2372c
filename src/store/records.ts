import type { z } from 'zod';
import { StoreMisuseError } from './errors';

/**
 * What a backend keeps for the keyed records: text under (kind, key), compared as text. Each write
 * of a record and its place in its kind's listing is one step (a transaction, a script).
 */
export interface RecordsStorage {
  get(kind: string, key: string): Promise<string | undefined>;
  set(kind: string, key: string, text: string, ttlMs?: number): Promise<void>;
  /** Writes only when no live record is there; true when this call wrote it. Atomic across instances. */
  setIfAbsent(kind: string, key: string, text: string, ttlMs?: number): Promise<boolean>;
  /** Replaces the record only when its text is `expected` (its expiry kept); true when this call replaced it. */
  compareAndSet(kind: string, key: string, expected: string, next: string): Promise<boolean>;
  delete(kind: string, key: string): Promise<void>;
  /** The live records of a kind, by key (ascending), at most `limit`. */
  list(kind: string, limit: number): Promise<Array<{ key: string; text: string }>>;
  /** Every live record of every kind, with the lifetime it has left (none: for good), in no particular order (what a copy of the store reads). */
  all(): AsyncGenerator<StoredRecord>;
}

/** A keyed record as a backend keeps it. */
export interface StoredRecord {
  kind: string;
  key: string;
  text: string;
  /** Milliseconds it has left; absent: kept for good. */
  ttlMs?: number;
}

/** A kind names what a record is (`delegation`, `digest-slot`); it never holds the separator of keys. */
const KIND = /^[a-z][a-z0-9-]{0,39}$/;
const MAX_KEY = 200;

function check(kind: string, key?: string): void {
  if (!KIND.test(kind)) throw new StoreMisuseError(`Not a record kind: ${JSON.stringify(kind)}`);
  if (key !== undefined && (key.length === 0 || key.length > MAX_KEY))
    throw new StoreMisuseError(`A record key is 1 to ${MAX_KEY} characters`);
}

function ttl(ttlMs: number | undefined): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (!Number.isFinite(ttlMs) || ttlMs <= 0) throw new StoreMisuseError('A record lifetime is a positive number of milliseconds');
  return Math.max(1, Math.round(ttlMs));
}

/**
 * JSON with every object's keys in order: the same value is the same text on every backend and every
 * time, so that compare-and-set compares values, not the order their fields were written in.
 */
export function canonicalJson(value: unknown): string {
  const text = JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
  if (text === undefined) throw new StoreMisuseError('A record value is JSON');
  return text;
}

/**
 * Small durable records for the features' own state, written once against this and proven on every
 * backend: marks, slots, per-user settings. Values are JSON; the caller validates them with its own
 * schema (`recordsOf`). `setIfAbsent` is "first one wins" across instances and restarts, and
 * `compareAndSet` changes a record only from the value the caller saw: the two tools of exactly-once.
 * Unlike claims (in memory on sqlite), records are durable on every backend.
 */
export class RecordsRepo {
  constructor(private readonly storage: RecordsStorage) {}

  async get(kind: string, key: string): Promise<unknown> {
    check(kind, key);
    const text = await this.storage.get(kind, key);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
  }

  async set(kind: string, key: string, value: unknown, ttlMs?: number): Promise<void> {
    check(kind, key);
    await this.storage.set(kind, key, canonicalJson(value), ttl(ttlMs));
  }

  async setIfAbsent(kind: string, key: string, value: unknown, ttlMs?: number): Promise<boolean> {
    check(kind, key);
    return this.storage.setIfAbsent(kind, key, canonicalJson(value), ttl(ttlMs));
  }

  /** `expected`: the value as `get` gave it. */
  async compareAndSet(kind: string, key: string, expected: unknown, next: unknown): Promise<boolean> {
    check(kind, key);
    return this.storage.compareAndSet(kind, key, canonicalJson(expected), canonicalJson(next));
  }

  async delete(kind: string, key: string): Promise<void> {
    check(kind, key);
    await this.storage.delete(kind, key);
  }

  async list(kind: string, limit: number): Promise<Array<{ key: string; value: unknown }>> {
    check(kind);
    if (!Number.isInteger(limit) || limit < 1) throw new StoreMisuseError('A listing limit is a positive integer');
    return (await this.storage.list(kind, limit)).map(({ key, text }) => ({ key, value: JSON.parse(text) as unknown }));
  }
}

/** The records of one kind, validated by its schema on the way in and out. */
export interface RecordsOf<T> {
  get(key: string): Promise<T | undefined>;
  set(key: string, value: T, ttlMs?: number): Promise<void>;
  setIfAbsent(key: string, value: T, ttlMs?: number): Promise<boolean>;
  /**
   * `expected`: the value as `get` gave it. The comparison is of the stored JSON, so a schema that
   * drops or transforms stored fields would never match: records' schemas parse to what they read.
   */
  compareAndSet(key: string, expected: T, next: T): Promise<boolean>;
  delete(key: string): Promise<void>;
  list(limit: number): Promise<Array<{ key: string; value: T }>>;
}

export function recordsOf<T>(records: RecordsRepo, kind: string, schema: z.ZodType<T>): RecordsOf<T> {
  check(kind);
  const read = (value: unknown) => (value === undefined ? undefined : schema.parse(value));
  return {
    get: async (key) => read(await records.get(kind, key)),
    set: async (key, value, ttlMs) => records.set(kind, key, schema.parse(value), ttlMs),
    setIfAbsent: async (key, value, ttlMs) => records.setIfAbsent(kind, key, schema.parse(value), ttlMs),
    compareAndSet: async (key, expected, next) => records.compareAndSet(kind, key, expected, schema.parse(next)),
    delete: (key) => records.delete(kind, key),
    list: async (limit) => (await records.list(kind, limit)).map(({ key, value }) => ({ key, value: schema.parse(value) })),
  };
}
