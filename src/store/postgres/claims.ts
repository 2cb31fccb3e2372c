import { AtMostEvery } from '../at-most-every';
import type { Claims } from '../claims';
import type { Query } from './db';

/** Lapsed claims are deleted in passing, at most this often (each Slack delivery leaves one behind). */
const PRUNE_EVERY_MS = 60_000;

/** Claims sent in one statement at most. */
const MAX_BATCH = 500;

interface Ask {
  key: string;
  ttlMs: number;
  resolve(won: boolean): void;
  reject(err: unknown): void;
}

/**
 * Claims shared by every instance on the database: a row per key with its holder and expiry, on the
 * database's clock. Taking one is an insert that, on a conflict, takes the row over only when it has
 * lapsed (`INSERT … ON CONFLICT DO UPDATE … WHERE expires_at <= now()`): two racers are serialized on
 * the row, and the second sees the first's claim. The claims asked in one turn of the event loop (a
 * burst of Slack deliveries, each checked for a repeat) go in one statement: a statement each costs
 * the database and this process far more than a row more, and a burst is when it shows.
 */
export class PostgresClaims implements Claims {
  private readonly pruning = new AtMostEvery(PRUNE_EVERY_MS);
  private asked: Ask[] = [];
  private sending = false;

  constructor(
    private readonly query: Query,
    private readonly s: string,
    private readonly holder: string,
  ) {}

  claim(key: string, ttlMs: number): Promise<boolean> {
    this.prune();
    return new Promise((resolve, reject) => {
      this.asked.push({ key, ttlMs: ms(ttlMs), resolve, reject });
      if (this.sending) return;
      this.sending = true;
      setImmediate(() => this.send());
    });
  }

  private send(): void {
    const batch = this.asked.splice(0, MAX_BATCH);
    if (this.asked.length > 0) setImmediate(() => this.send());
    else this.sending = false;
    // A key once per statement (a row cannot be taken twice by one insert): its first asker may win it.
    const first = new Map<string, Ask>();
    for (const ask of batch) if (!first.has(ask.key)) first.set(ask.key, ask);
    // In one order in every statement, so that two instances' statements never wait on each other's rows.
    const keys = [...first.keys()].sort();
    this.query(
      `INSERT INTO ${this.s}.claims AS c (key, holder, expires_at)
       SELECT k, $2, now() + t * interval '1 millisecond' FROM unnest($1::text[], $3::double precision[]) AS asked(k, t) ORDER BY k
       ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at WHERE c.expires_at <= now()
       RETURNING key`,
      [keys, this.holder, keys.map((k) => first.get(k)!.ttlMs)],
    ).then(
      (rows) => {
        const won = new Set(rows.map((r) => String(r.key)));
        for (const ask of batch) ask.resolve(first.get(ask.key) === ask && won.has(ask.key));
      },
      (err: unknown) => {
        for (const ask of batch) ask.reject(err);
      },
    );
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    const rows = await this.query(
      `UPDATE ${this.s}.claims SET expires_at = now() + $3 * interval '1 millisecond' WHERE key = $1 AND holder = $2 AND expires_at > now() RETURNING 1`,
      [key, this.holder, ms(ttlMs)],
    );
    return rows.length === 1;
  }

  async release(key: string): Promise<void> {
    await this.query(`DELETE FROM ${this.s}.claims WHERE key = $1 AND holder = $2`, [key, this.holder]);
  }

  /** Not waited for: a claim is answered as soon as it is taken. */
  private prune(): void {
    if (!this.pruning.due()) return;
    this.query(`DELETE FROM ${this.s}.claims WHERE expires_at <= now()`).catch(() => undefined);
  }
}

const ms = (ttlMs: number) => Math.max(1, Math.round(ttlMs));
