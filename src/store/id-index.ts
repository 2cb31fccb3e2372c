import type { RedisClientType } from '@keyv/redis';
import type Keyv from 'keyv';

/**
 * The ids of a small set of records, ordered by a score (a time): what a tick reads instead of
 * scanning a namespace (on Redis a SCAN walks the whole keyspace, every other deployment's keys
 * included, however few records the set holds).
 */
export interface IdIndex {
  add(id: string, score: number): Promise<void>;
  remove(id: string): Promise<void>;
  /** Every id with its score, lowest score first. */
  entries(): Promise<Array<{ id: string; score: number }>>;
}

/** On Redis: one sorted set, shared by the instances (ZADD, ZREM, ZRANGE). */
export class RedisIdIndex implements IdIndex {
  constructor(
    private readonly client: RedisClientType,
    private readonly key: string,
    /** The store's guard: a time limit and StoreUnavailableError, like every other operation. */
    private readonly guard: <T>(operation: string, run: () => Promise<T>) => Promise<T>,
  ) {}

  async add(id: string, score: number): Promise<void> {
    await this.guard('index', () => this.client.zAdd(this.key, { score, value: id }));
  }

  async remove(id: string): Promise<void> {
    await this.guard('index', () => this.client.zRem(this.key, id));
  }

  async entries(): Promise<Array<{ id: string; score: number }>> {
    const found = await this.guard('index', () => this.client.zRangeWithScores(this.key, 0, -1));
    return found.map(({ value, score }) => ({ id: String(value), score: Number(score) }));
  }
}

/**
 * In one record of a keyv store (sqlite: one process), its read-modify-write steps taken one at a
 * time in this process.
 */
export class KeyvIdIndex implements IdIndex {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly keyv: Keyv,
    private readonly key: string,
  ) {}

  add(id: string, score: number): Promise<void> {
    return this.change((entries) => ({ ...entries, [id]: score }));
  }

  remove(id: string): Promise<void> {
    return this.change(({ [id]: _, ...rest }) => rest);
  }

  async entries(): Promise<Array<{ id: string; score: number }>> {
    return Object.entries(await this.read())
      .map(([id, score]) => ({ id, score }))
      .sort((a, b) => a.score - b.score);
  }

  private async read(): Promise<Record<string, number>> {
    const raw = (await this.keyv.get(this.key)) as Record<string, number> | undefined;
    return raw ?? {};
  }

  private change(update: (entries: Record<string, number>) => Record<string, number>): Promise<void> {
    const next = this.queue.then(async () => {
      await this.keyv.set(this.key, update(await this.read()));
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
