import type { Claims } from '../claims';
import type { Query } from './db';

/** Lapsed claims are deleted in passing, at most this often (each Slack delivery leaves one behind). */
const PRUNE_EVERY_MS = 60_000;

/**
 * Claims shared by every instance on the database: a row per key with its holder and expiry, on the
 * database's clock. Taking one is an insert that, on a conflict, takes the row over only when it has
 * lapsed (`INSERT … ON CONFLICT DO UPDATE … WHERE expires_at <= now()`): two racers are serialized on
 * the row, and the second sees the first's claim.
 */
export class PostgresClaims implements Claims {
  private prunedAt = 0;

  constructor(
    private readonly query: Query,
    private readonly s: string,
    private readonly holder: string,
  ) {}

  async claim(key: string, ttlMs: number): Promise<boolean> {
    this.prune();
    const rows = await this.query(
      `INSERT INTO ${this.s}.claims AS c (key, holder, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
       ON CONFLICT (key) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at WHERE c.expires_at <= now()
       RETURNING 1`,
      [key, this.holder, ms(ttlMs)],
    );
    return rows.length === 1;
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
    const now = Date.now();
    if (now - this.prunedAt < PRUNE_EVERY_MS) return;
    this.prunedAt = now;
    this.query(`DELETE FROM ${this.s}.claims WHERE expires_at <= now()`).catch(() => undefined);
  }
}

const ms = (ttlMs: number) => Math.max(1, Math.round(ttlMs));
