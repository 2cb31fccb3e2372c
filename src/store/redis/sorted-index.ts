import type { RedisClientType } from '@keyv/redis';
import type { IndexEntry, SortedIndex } from '../sorted-index';

const entries = (found: Array<{ value: string; score: number }>): IndexEntry[] =>
  found.map(({ value, score }) => ({ id: String(value), score: Number(score) }));

/** One sorted set (`<namespace>:approvals:due`, `<namespace>:intents-index`, `<namespace>:tracked:polled`), shared by every instance. */
export class RedisSortedIndex implements SortedIndex {
  constructor(
    private readonly client: RedisClientType,
    private readonly key: string,
  ) {}

  async put(id: string, score: number): Promise<void> {
    await this.client.zAdd(this.key, { score, value: id });
  }

  async remove(id: string): Promise<void> {
    await this.client.zRem(this.key, id);
  }

  async range(maxScore: number, limit: number): Promise<IndexEntry[]> {
    if (limit < 1) return [];
    return entries(await this.client.zRangeWithScores(this.key, '-inf', maxScore, { BY: 'SCORE', LIMIT: { offset: 0, count: limit } }));
  }

  async all(limit?: number): Promise<IndexEntry[]> {
    if (limit !== undefined && limit < 1) return [];
    return entries(await this.client.zRangeWithScores(this.key, 0, limit === undefined ? -1 : limit - 1));
  }

  async count(): Promise<number> {
    return this.client.zCard(this.key);
  }
}
