/**
 * The sandbox's time: the wall clock plus an offset that a test moves forward (`POST /sandbox/clock`),
 * so that whatever depends on time (look-up tokens refilled, caches expired, a payment confirmed after
 * its delay) can be seen without sleeping. Work scheduled for a time runs when real time reaches it or
 * when the clock is moved past it, whichever comes first, once.
 */

interface Task {
  at: number;
  run: () => void;
  timer: NodeJS.Timeout | undefined;
}

export class SandboxClock {
  private offset = 0;
  private readonly pending = new Set<Task>();

  now(): number {
    return Date.now() + this.offset;
  }

  date(): Date {
    return new Date(this.now());
  }

  /** How far the clock has been moved ahead of the wall clock. */
  get offsetMs(): number {
    return this.offset;
  }

  /** Moves the sandbox's time forward and runs, in time order, the work that became due. */
  advance(ms: number): void {
    this.offset += ms;
    const now = this.now();
    const due = [...this.pending].filter((t) => t.at <= now).sort((a, b) => a.at - b.at);
    for (const task of due) this.run(task);
  }

  /** Runs `run` once the sandbox's time reaches `at` (epoch milliseconds). */
  at(at: number, run: () => void): void {
    const task: Task = { at, run, timer: undefined };
    this.pending.add(task);
    task.timer = setTimeout(() => this.run(task), Math.max(0, at - this.now()));
    // The bot's in-process sandbox must not keep the process alive for a payment still settling.
    task.timer.unref();
  }

  /** Drops the work not yet done (the sandbox is closing). */
  close(): void {
    for (const task of this.pending) clearTimeout(task.timer);
    this.pending.clear();
  }

  private run(task: Task): void {
    if (!this.pending.delete(task)) return;
    clearTimeout(task.timer);
    try {
      task.run();
    } catch (error) {
      console.error('sandbox: scheduled work failed', error);
    }
  }
}
