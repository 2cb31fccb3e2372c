import type Keyv from 'keyv';
import { FORMER_LOOKED_FOR_EVERY_MS, NowAndThen } from '../at-most-every';
import type { SortedIndex } from '../sorted-index';
import type { TrackedRequest, TrackedRequestsStorage } from '../tracked-requests';
import { keysOf, moveKeys, prefixedRecords } from './open';

/**
 * Records under `tracked:<id>` in the main namespace; the ids to poll in the backend's index (scored
 * by when each was tracked), so a tick reads exactly the open ones and never walks the keyspace.
 */
export class KeyvTrackedRequests implements TrackedRequestsStorage {
  /** Ids an earlier version kept to poll move to the index. */
  private readonly adoption = new NowAndThen(FORMER_LOOKED_FOR_EVERY_MS, () => this.moveFormer());

  constructor(
    private readonly records: Keyv,
    private readonly index: SortedIndex,
    /** Where earlier versions kept the ids to poll (`<namespace>-poll`, walked key by key: on Redis a SCAN of the whole keyspace). */
    private readonly formerPollSet: Keyv,
  ) {}

  get(limitRequestId: string): Promise<unknown> {
    return this.records.get(key(limitRequestId));
  }

  getMany(limitRequestIds: string[]): Promise<unknown[]> {
    return this.records.getMany(limitRequestIds.map(key));
  }

  async put(record: TrackedRequest, poll?: boolean): Promise<void> {
    await this.records.set(key(record.limitRequestId), record);
    if (poll === true) await this.index.put(record.limitRequestId, scoreOf(record));
    else if (poll === false) await this.unpoll(record.limitRequestId);
  }

  async delete(limitRequestId: string): Promise<void> {
    await this.unpoll(limitRequestId);
    await this.records.delete(key(limitRequestId));
  }

  async unpoll(limitRequestId: string): Promise<void> {
    await this.index.remove(limitRequestId);
    // Also where an earlier version's instance may have put it and it was not moved yet: moved later, it would be polled again.
    await this.formerPollSet.delete(limitRequestId);
  }

  async *polled(): AsyncGenerator<string> {
    await this.adoption.run();
    for (const { id } of await this.index.all()) yield id;
  }

  async *all(): AsyncGenerator<{ record: unknown; polled: boolean }> {
    // Read, not moved: a copy of the store leaves its source as it was.
    const polled = new Set((await this.index.all()).map((e) => e.id));
    for await (const id of keysOf(this.formerPollSet)) polled.add(id);
    for await (const { id, value } of prefixedRecords(this.records, PREFIX)) yield { record: value, polled: polled.has(id) };
  }

  private async moveFormer(): Promise<void> {
    for await (const _ of moveKeys(this.formerPollSet, (id) => this.index.put(id, 0))) {
      // Each step moves one id.
    }
  }
}

const PREFIX = 'tracked:';
const key = (limitRequestId: string) => `${PREFIX}${limitRequestId}`;
/** When it was tracked (0 when that cannot be read): the index's order, oldest first. */
const scoreOf = (record: TrackedRequest) => {
  const ms = Date.parse(record.createdAt);
  return Number.isFinite(ms) ? ms : 0;
};
