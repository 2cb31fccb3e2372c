import { type Admission, admissionOf, BOOK_AHEAD_MS, type RateWindow, WINDOW_MS } from '../../pix/budget';
import type { Guard } from '../guard';
import type { Query } from './db';

/**
 * The Pix budget's window of every instance on the database: one row locked by each admission, on
 * the database's clock (the functions `pix_budget_admit` of migrations/002_pix_budget_rows.sql and
 * `pix_budget_hold_off` of 001_initial.sql, the rules of MemoryRateWindow). One round trip a call.
 */
export class PostgresRateWindow implements RateWindow {
  constructor(
    private readonly query: Query,
    private readonly s: string,
    /** The store's guard: a time limit and StoreUnavailableError, like every other operation. */
    private readonly guard: Guard,
  ) {}

  async admit(limit: number, reserve: number): Promise<Admission> {
    const [row] = await this.guard('pix budget', () =>
      this.query(`SELECT ${this.s}.pix_budget_admit($1, $2, $3, $4) AS answer`, [limit, reserve, WINDOW_MS, BOOK_AHEAD_MS]),
    );
    return admissionOf(Number(row?.answer ?? 0));
  }

  async holdOff(ms: number, slowMs: number): Promise<void> {
    await this.guard('pix budget', () =>
      this.query(`SELECT ${this.s}.pix_budget_hold_off($1, $2)`, [Math.max(1, Math.round(ms)), Math.max(0, Math.round(slowMs))]),
    );
  }
}
