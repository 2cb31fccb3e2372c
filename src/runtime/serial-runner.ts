/**
 * Runs one job at a time. `join()` returns the run in progress, or starts one (what a scheduled tick
 * wants: when one is running, there is nothing more to do). `fresh()` returns a run that starts now or,
 * when one is in progress, right after it, shared by every caller that asks meanwhile: what an
 * on-demand tick wants, since a run that started earlier may have read the state before the caller's
 * change. Runs never overlap either way.
 */
export class SerialRunner<T> {
  private current: Promise<T> | undefined;
  private queued: Promise<T> | undefined;

  constructor(private readonly job: () => Promise<T>) {}

  join(): Promise<T> {
    return this.current ?? this.queued ?? this.start();
  }

  fresh(): Promise<T> {
    if (!this.current) return this.start();
    this.queued ??= this.current
      .catch(() => undefined)
      .then(() => {
        this.queued = undefined;
        return this.start();
      });
    return this.queued;
  }

  /** Resolves when nothing is running or queued (whatever the runs' outcomes). */
  async idle(): Promise<void> {
    while (this.current || this.queued) await (this.queued ?? this.current)!.catch(() => undefined);
  }

  private start(): Promise<T> {
    const run: Promise<T> = this.job().finally(() => {
      if (this.current === run) this.current = undefined;
    });
    this.current = run;
    return run;
  }
}
