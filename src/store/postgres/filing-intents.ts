import type { FilingIntent, FilingIntentsStorage } from '../filing-intents';
import type { IndexEntry } from '../sorted-index';
import { pages, type Query } from './db';
import { PostgresSortedIndex } from './sorted-index';

const INDEX = 'filing_intents';

/** Each intent a row of `filing_intents`, indexed by time in `sorted_index`; an intent and its entry written and removed in one statement. */
export class PostgresFilingIntents implements FilingIntentsStorage {
  private readonly sorted: PostgresSortedIndex;

  constructor(
    private readonly query: Query,
    private readonly s: string,
  ) {
    this.sorted = new PostgresSortedIndex(query, s, INDEX);
  }

  async get(intentId: string): Promise<unknown> {
    const [row] = await this.query(`SELECT record FROM ${this.s}.filing_intents WHERE intent_id = $1`, [intentId]);
    return row?.record;
  }

  async put(intent: FilingIntent, score: number): Promise<void> {
    await this.query(
      `WITH indexed AS (
         INSERT INTO ${this.s}.sorted_index (name, id, score) VALUES ($1, $2, $3) ON CONFLICT (name, id) DO UPDATE SET score = excluded.score
       )
       INSERT INTO ${this.s}.filing_intents (intent_id, record) VALUES ($2, $4) ON CONFLICT (intent_id) DO UPDATE SET record = excluded.record`,
      [INDEX, intent.intentId, score, JSON.stringify(intent)],
    );
  }

  async delete(intentId: string): Promise<void> {
    await this.query(
      `WITH unindexed AS (DELETE FROM ${this.s}.sorted_index WHERE name = $1 AND id = $2)
       DELETE FROM ${this.s}.filing_intents WHERE intent_id = $2`,
      [INDEX, intentId],
    );
  }

  indexed(): Promise<IndexEntry[]> {
    return this.sorted.all();
  }

  unindex(intentId: string): Promise<void> {
    return this.sorted.remove(intentId);
  }

  async *all(): AsyncGenerator<unknown> {
    const sql = `SELECT intent_id, record FROM ${this.s}.filing_intents WHERE $1::text IS NULL OR intent_id > $1 ORDER BY intent_id LIMIT $2`;
    for await (const row of pages(this.query, sql, 'intent_id')) yield row.record;
  }
}
