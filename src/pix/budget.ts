import { PixOpsError } from '../errors';

/**
 * Who a Pix call waits for: a person (a command, a modal, a button) or the poller (its sweep, the
 * reconciliation of filings, the approvals resumed on the tick). People go first.
 */
export type Lane = 'people' | 'poller';

/**
 * The shared count behind the budget: never more than `limit` calls admitted in any one-second
 * window (a sliding window, not a bucket: a bucket lets a full burst follow a full refill, twice the
 * limit in one second), and the calls spaced evenly within it (one every window / limit: a bucket of
 * depth 1), so that a second's calls do not leave in one burst, and the network's jitter cannot
 * crowd two bursts into one second at the API. A turn taken late (a timer's lateness) is made up by
 * the next one, so the pace does not drift below the limit. `admit` takes a place, or answers how long
 * to wait before asking again. The poller's lane (`reserve` > 0: PEOPLE_PLACES) keeps that pace and
 * leaves `reserve` places of each window to people, so a person on another instance is not starved by
 * this one's sweep; people take a free place of the window at once (a person waits, the sweep does
 * not), and their turn pushes the poller's next one back. A poller's turn due within BOOK_AHEAD_MS is
 * booked (admitted for its time, not for now): the sweep asks for its next turn while the last one is
 * still ahead, so its pace is the window's and not one round trip to the store plus a timer per call.
 */
export interface RateWindow {
  admit(limit: number, reserve: number): Promise<Admission>;
  /**
   * The Pix API answered 429: nobody is admitted for `ms`, and for `slowMs` after that the limit is
   * halved (the company's own traffic may be what filled the allowance).
   */
  holdOff(ms: number, slowMs: number): Promise<void>;
}

/** A place taken, the call to go `go` ms from now (0: at once; more: a booked turn); or none yet, worth asking again in `wait` ms. */
export type Admission = { go: number } | { wait: number };

/**
 * An admission as the stores' scripts answer it, one number: a wait (> 0, at least 1 ms), or a place
 * taken, the call to go in minus that many ms (≤ 0).
 */
export const admissionOf = (answer: number): Admission => (answer > 0 ? { wait: answer } : { go: answer < 0 ? -answer : 0 });

/**
 * How far ahead a poller's turn is booked: enough for a round trip to the store and a timer's
 * lateness, so that at a thousand calls a second the sweep's next turn is taken before it is due.
 */
export const BOOK_AHEAD_MS = 5;

/** The window of one process (the sqlite store: one process), on an injectable clock. */
export class MemoryRateWindow implements RateWindow {
  private readonly admitted: number[] = [];
  private blockedUntil = 0;
  private slowUntil = 0;
  /** When the next turn is due (the theoretical arrival time of the even pace). */
  private nextTurn = 0;

  constructor(private readonly now: () => number = Date.now) {}

  async admit(limit: number, reserve: number): Promise<Admission> {
    const now = this.now();
    if (this.blockedUntil > now) return { wait: this.blockedUntil - now };
    const effective = now < this.slowUntil ? slowed(limit) : limit;
    // The poller's turn: now when it is due, booked when it is due within BOOK_AHEAD_MS.
    let at = now;
    if (reserve > 0 && now < this.nextTurn) {
      if (this.nextTurn - now > BOOK_AHEAD_MS) return { wait: Math.max(1, Math.ceil(this.nextTurn - now - BOOK_AHEAD_MS)) };
      at = this.nextTurn;
    }
    const cap = capOf(effective, reserve);
    while (this.admitted.length > 0 && this.admitted[0]! <= now - WINDOW_MS) this.admitted.shift();
    // The place frees when the call that fills the window past `cap` leaves it (a booked turn counts from now).
    if (this.admitted.length >= cap) return { wait: Math.max(1, this.admitted[this.admitted.length - cap]! + WINDOW_MS - now) };
    // In order of time: a person's place taken now goes before turns booked ahead.
    const before = this.admitted.findIndex((t) => t > at);
    this.admitted.splice(before < 0 ? this.admitted.length : before, 0, at);
    const gap = WINDOW_MS / effective;
    // A turn taken a little late (within a gap of when it was due) keeps the pace; after a pause, the
    // next turn counts from now; a person's turn taken early pushes the next one back.
    this.nextTurn = (at - this.nextTurn < gap ? this.nextTurn : at) + gap;
    return { go: at - now };
  }

  async holdOff(ms: number, slowMs: number): Promise<void> {
    const now = this.now();
    this.blockedUntil = Math.max(this.blockedUntil, now + ms);
    this.slowUntil = Math.max(this.slowUntil, now + ms + slowMs);
  }
}

/**
 * The window counted: a fiftieth more than the second the limit is about, so that calls admitted a
 * window apart, reaching the API with the network's jitter, do not land closer than a second.
 */
export const WINDOW_MS = 1_020;
/** How long the bot goes at half its budget after a 429. */
const SLOW_AFTER_429_MS = 60_000;
/**
 * After the shared window failed (its store down, or hung past the store's time limit), calls are
 * counted in this process for this long before the shared window is asked again: a hung store then
 * costs one wait every few seconds instead of one per call, and the instances share one count again
 * within seconds of the store coming back.
 */
export const SHARED_RETRY_AFTER_MS = 5_000;
/**
 * How long an admission waits for the shared window's answer before it is admitted by this process's
 * count instead: a healthy store answers in a round trip (milliseconds), and a hung one would hold every
 * caller, a person or the health probe, for the store's whole time limit. The answer still decides
 * when it comes: an error pauses the shared window (SHARED_RETRY_AFTER_MS), a late answer resumes it.
 */
export const SHARED_PATIENCE_MS = 250;

const slowed = (limit: number) => Math.max(1, Math.floor(limit / 2));
/**
 * The places of each window the poller leaves to people: as many as one person's interaction takes one
 * after another before its answer (a `/pix limits`: the accounts, for the default one, then its
 * limits), so that it waits for none of the sweep's reads. A place stays taken for a window: a
 * person's next interaction within that window may wait for a call of the sweep to leave it.
 */
export const PEOPLE_PLACES = 2;
/** The poller's share: all but `reserve` places, but never nothing. */
const capOf = (limit: number, reserve: number) => Math.max(1, limit - reserve);

export interface PixBudgetOptions {
  /** Calls a second (PIX_RATE_LIMIT). */
  limit: number;
  window: RateWindow;
  /**
   * Used when `window` (a shared one) fails or is slow to answer (its store down or hung): the calls go
   * on, counted in this process only, rather than the Pix API becoming unusable, or slow, with the store.
   */
  fallback?: RateWindow;
  sleep?: (ms: number) => Promise<void>;
  onWindowError?: (err: unknown) => void;
  /** The clock of the shared window's pause (tests move it by hand). */
  now?: () => number;
}

interface Waiter {
  resolve: () => void;
}

/** A call given up while it waited for its place (its caller stopping): it was never sent. */
export class BudgetWaitAbortedError extends PixOpsError {
  readonly code = 'pixops_pix_budget_wait_aborted';

  constructor() {
    super('given up while waiting for the Pix budget: not sent');
  }
}

/**
 * One budget in front of every Pix call of the process. Callers queue in their lane; one pump admits
 * them in order, people's lane first, asking the window for each place (one round trip to a shared
 * store). A caller whose turn must wait sleeps on a timer: nothing else is held.
 */
export class PixBudget {
  private readonly lanes: Record<Lane, Waiter[]> = { people: [], poller: [] };
  private pumping = false;
  /** Ends the pump's wait early: set while it waits for a place for the poller's lane. */
  private wake: (() => void) | undefined;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly now: () => number;
  /** Until when the shared window is not asked (it failed): the calls are counted here meanwhile. */
  private sharedPausedUntil = 0;
  /** An admission asked of the shared window and not answered yet: no other admission is asked meanwhile. */
  private sharedBusy = false;
  /** Until when calls admitted by this process alone are in the last window: the shared one knows nothing of them. */
  private countedHereUntil = 0;

  constructor(private readonly options: PixBudgetOptions) {
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
    this.now = options.now ?? Date.now;
  }

  get limit(): number {
    return this.options.limit;
  }

  /**
   * Resolves when a call in `lane` may be sent now (its place taken). Rejects with BudgetWaitAbortedError,
   * its place given to the next, when `signal` aborts first (the poller stopping: no new request).
   */
  acquire(lane: Lane, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(new BudgetWaitAbortedError());
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const queue = this.lanes[lane];
        const at = queue.indexOf(waiter);
        if (at < 0) return;
        queue.splice(at, 1);
        reject(new BudgetWaitAbortedError());
      };
      const waiter: Waiter = {
        resolve: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.lanes[lane].push(waiter);
      // A person does not wait out the poller's wait: the window may well have a place for people.
      if (lane === 'people') this.wake?.();
      void this.pump();
    });
  }

  /** A 429: every lane waits `ms`, then goes at half the budget for a while (SLOW_AFTER_429_MS). */
  async holdOff(ms: number): Promise<void> {
    const { window, fallback } = this.options;
    if (!fallback) {
      await window.holdOff(ms, SLOW_AFTER_429_MS).catch((err: unknown) => this.options.onWindowError?.(err));
      return;
    }
    // This process's count honours it too, whatever becomes of the shared window.
    await fallback.holdOff(ms, SLOW_AFTER_429_MS);
    // Told to the shared window even while an admission waits on it: every instance must hold off.
    await this.askShared(() => window.holdOff(ms, SLOW_AFTER_429_MS), { alongside: true });
  }

  private async pump(): Promise<void> {
    if (this.pumping) return;
    this.pumping = true;
    try {
      for (;;) {
        const lane: Lane | undefined = this.lanes.people.length > 0 ? 'people' : this.lanes.poller.length > 0 ? 'poller' : undefined;
        if (!lane) return;
        const admission = await this.admit(lane);
        // The place goes to whoever is first in the lane now (the one it was asked for may have given up);
        // a booked turn's caller waits for it on its own timer while the next place is asked for.
        if ('go' in admission) {
          const waiter = this.lanes[lane].shift();
          if (waiter && admission.go > 0) void this.sleep(admission.go).then(waiter.resolve);
          else waiter?.resolve();
        }
        // Asked again after the wait, whoever is first then: a person who came meanwhile goes first.
        else {
          await new Promise<void>((resolve) => {
            if (lane === 'poller') this.wake = resolve;
            void this.sleep(admission.wait).then(resolve);
          });
          this.wake = undefined;
        }
      }
    } finally {
      this.pumping = false;
    }
  }

  /**
   * A place, or how long to wait. The shared window decides, unless it is paused or slow to
   * answer: then this process's count (the fallback) does, so that a hung store costs no caller more
   * than SHARED_PATIENCE_MS. The fallback also counts the calls the shared window admits, so that it
   * knows this instance's last window when it takes over; and for a window after calls it admitted
   * alone, it is asked first, the shared window knowing nothing of them.
   */
  private async admit(lane: Lane): Promise<Admission> {
    const reserve = lane === 'poller' ? PEOPLE_PLACES : 0;
    const { limit, window, fallback } = this.options;
    if (!fallback) {
      try {
        return await window.admit(limit, reserve);
      } catch (err) {
        this.options.onWindowError?.(err);
        return { go: 0 };
      }
    }
    const countedHere = this.now() < this.countedHereUntil;
    const local = countedHere ? await fallback.admit(limit, reserve) : undefined;
    if (local && 'wait' in local) return local;
    const shared = await this.askShared(() => window.admit(limit, reserve));
    if (shared !== undefined) {
      if ('go' in shared.answer && !countedHere) await fallback.admit(limit, 0);
      return shared.answer;
    }
    const admission = local ?? (await fallback.admit(limit, reserve));
    if ('go' in admission) this.countedHereUntil = this.now() + WINDOW_MS;
    return admission;
  }

  /**
   * The shared window's answer, or undefined when it is not asked (paused after a failure, or, for an
   * admission, another one still unanswered), fails, or does not answer within SHARED_PATIENCE_MS. A
   * question left unanswered keeps its effect when it ends: a failure pauses the shared window, an
   * answer resumes it (a place it took meanwhile goes unused: the count errs on the safe side).
   * `alongside`: asked whether or not an admission is waiting on the window (a hold-off).
   */
  private async askShared<T>(ask: () => Promise<T>, options: { alongside?: boolean } = {}): Promise<{ answer: T } | undefined> {
    const exclusive = !options.alongside;
    if ((exclusive && this.sharedBusy) || this.now() < this.sharedPausedUntil) return undefined;
    if (exclusive) this.sharedBusy = true;
    const answered = ask().then(
      (answer) => {
        if (exclusive) this.sharedBusy = false;
        return { answer };
      },
      (err: unknown) => {
        if (exclusive) this.sharedBusy = false;
        this.sharedPausedUntil = this.now() + SHARED_RETRY_AFTER_MS;
        this.options.onWindowError?.(err);
        return undefined;
      },
    );
    let timer: NodeJS.Timeout | undefined;
    // Given up only after the I/O already arrived is read (setImmediate runs after it): a busy process
    // whose timers run late does not take a store that did answer for a slow one.
    const patience = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => setImmediate(() => resolve(undefined)), SHARED_PATIENCE_MS);
    });
    try {
      return await Promise.race([answered, patience]);
    } finally {
      clearTimeout(timer);
    }
  }
}
