import type { Deps } from '../deps';

export interface TickReport {
  polled: number;
  decided: number;
  failed: number;
}

export interface Poller {
  /** Runs one tick now (the schedule runs them too); resolves when every request of it is done. */
  tick(): Promise<TickReport>;
  stop(): Promise<void>;
}

export function startPoller(_deps: Deps, _options: { schedule: string; concurrency: number }): Poller {
  return { tick: async () => ({ polled: 0, decided: 0, failed: 0 }), stop: async () => undefined };
}
