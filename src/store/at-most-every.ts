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
}
