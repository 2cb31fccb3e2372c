/**
 * Yes at most once every `everyMs`, the first time at once: how a store deletes what has lapsed in
 * passing, on the way of another call, with no timer of its own.
 */
export class AtMostEvery {
  private last: number | undefined;

  constructor(private readonly everyMs: number) {}

  /** Whether it is time; if so, it counts as done at `now`. */
  due(now = Date.now()): boolean {
    if (this.last !== undefined && now - this.last < this.everyMs) return false;
    this.last = now;
    return true;
  }

  /** The last yes counts for nothing (what it let through failed): the next ask is due at once. */
  again(): void {
    this.last = undefined;
  }
}

/**
 * What an earlier version left where this one no longer looks, moved on: `work` run at the first ask
 * and then at most every `everyMs`, so that an instance of that version still running beside this
 * one (a rolling upgrade) is caught up with. An ask while a run is under way waits for it; a run that
 * failed is run again at the next ask.
 */
export class NowAndThen {
  private readonly every: AtMostEvery;
  private running: Promise<void> | undefined;

  constructor(
    everyMs: number,
    private readonly work: () => Promise<void>,
  ) {
    this.every = new AtMostEvery(everyMs);
  }

  run(): Promise<void> {
    if (this.running) return this.running;
    if (!this.every.due()) return Promise.resolve();
    this.running = this.work()
      .catch((err: unknown) => {
        this.every.again();
        throw err;
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }
}

/** How often what an earlier version left is looked for again after the first time. */
export const FORMER_LOOKED_FOR_EVERY_MS = 10 * 60_000;
