/**
 * Short-lived exclusive claims: "I am doing X; nobody else do it until I release it or `ttlMs` has
 * passed". The expiry is what makes them safe against a holder that dies: its claims lapse on their
 * own. A claim names its holder (one per open store), so only the holder can renew or release it.
 */
export interface Claims {
  /** Takes `key` for `ttlMs` when nobody holds it; false when someone (this holder included) does. */
  claim(key: string, ttlMs: number): Promise<boolean>;
  /** Extends a claim this holder still has; false when it lapsed or is someone else's. */
  renew(key: string, ttlMs: number): Promise<boolean>;
  /** Gives up a claim this holder has (a claim of someone else's is left alone). */
  release(key: string): Promise<void>;
}

/**
 * Claims in this process's memory: enough for the sqlite store, which is single-process. They are
 * shared by every store opened on the same file and namespace in the process (a test that runs two
 * apps on one file, or an app restarted in place), like Redis claims are shared by every instance.
 */
export class MemoryClaims implements Claims {
  private static readonly spaces = new Map<string, Map<string, { holder: string; expires: number }>>();
  private readonly held: Map<string, { holder: string; expires: number }>;
  private sweepAt = 0;

  constructor(
    space: string,
    private readonly holder: string,
    private readonly now: () => number = Date.now,
  ) {
    let held = MemoryClaims.spaces.get(space);
    if (!held) {
      held = new Map();
      MemoryClaims.spaces.set(space, held);
    }
    this.held = held;
  }

  /** How many claims are kept (lapsed ones too, until the next sweep). */
  get size(): number {
    return this.held.size;
  }

  async claim(key: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    this.sweep(now);
    const current = this.held.get(key);
    if (current && current.expires > now) return false;
    this.held.set(key, { holder: this.holder, expires: now + ttlMs });
    return true;
  }

  async renew(key: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const current = this.held.get(key);
    if (!current || current.holder !== this.holder || current.expires <= now) return false;
    current.expires = now + ttlMs;
    return true;
  }

  async release(key: string): Promise<void> {
    if (this.held.get(key)?.holder === this.holder) this.held.delete(key);
  }

  /** Drops lapsed claims now and then, so keys claimed once (Slack deliveries) do not pile up. */
  private sweep(now: number): void {
    if (now < this.sweepAt) return;
    this.sweepAt = now + 60_000;
    for (const [key, c] of this.held) if (c.expires <= now) this.held.delete(key);
  }
}
