import {
  type BackendOptions,
  type Inspection,
  inspectStore,
  type OpenBackend,
  openBackend,
  openStore,
  type Store,
  type StoreOptions,
} from '../../../src/store';
import type { SortedIndex } from '../../../src/store/sorted-index';

/** The secret every contract store is opened with unless a case says otherwise. */
export const SECRET = 's'.repeat(40);

/**
 * State of its own on one backend (a temporary file, a key prefix): every store opened on it sees the
 * same state, as a second instance does, or the same instance after a restart.
 */
export interface Space {
  open(options?: Partial<Pick<StoreOptions, 'secret' | 'onSecret'>>): Promise<Store>;
  /** The backend's own parts, guarded as the store guards them (for what no repository shows: an index entry alone). */
  openBackend(options?: Pick<BackendOptions, 'existing'>): Promise<OpenBackend>;
  /** What the space holds, asked of the store without making anything. */
  inspect(): Promise<Inspection>;
  /** A sorted index of this backend named `name`, on this space. */
  sortedIndex(name: string): Promise<SortedIndex>;
  /** Closes whatever was opened on it and removes its state. */
  dispose(): Promise<void>;
}

/** What a backend's test file gives the contract suite. */
export interface BackendUnderTest {
  name: string;
  /** Its stores share the Pix budget's window (`store.rateWindow`); else each process counts its own. */
  sharesRateWindow: boolean;
  /** The name of the filing intents' index (`space().sortedIndex(name)`): to leave an entry without its record, as a filing cut short does. */
  filingIntentsIndex: string;
  /** A new, empty space. */
  space(): Promise<Space>;
}

/**
 * Builds a Space from how the backend opens stores on it: every store and backend opened through it is
 * closed by `dispose`, then `cleanUp` removes the state.
 */
export function spaceOf(
  options: StoreOptions,
  sortedIndex: (name: string) => Promise<{ index: SortedIndex; close(): Promise<void> }>,
  cleanUp: () => Promise<void>,
): Space {
  const opened: Array<{ close(): Promise<void> }> = [];
  const keep = <T extends { close(): Promise<void> }>(it: T): T => {
    opened.push(it);
    return it;
  };
  return {
    open: async (extra) => keep(await openStore({ secret: SECRET, ...options, ...extra })),
    openBackend: async (extra) => keep(await openBackend({ secret: SECRET, ...options, ...extra })),
    inspect: () => inspectStore(options),
    sortedIndex: async (name) => keep(await sortedIndex(name)).index,
    async dispose() {
      for (const it of opened.splice(0)) await it.close().catch(() => undefined);
      await cleanUp();
    },
  };
}

/**
 * A fresh space for each test of the block (`space()` inside a test), disposed after it.
 */
export function eachSpace(backend: BackendUnderTest): () => Space {
  let current: Space | undefined;
  beforeEach(async () => {
    current = await backend.space();
  });
  afterEach(async () => {
    await current?.dispose();
    current = undefined;
  });
  return () => {
    if (!current) throw new Error('No space: call inside a test');
    return current;
  };
}
