import type Keyv from 'keyv';
import type { SortedIndex } from '../sorted-index';
import type { TrackedRequest, TrackedRequestsStorage } from '../tracked-requests';
import { prefixedRecords } from './open';

/**
 * Records under `tracked:<id>` in the main namespace; the ids to poll in the backend's index (scored
 * by when each was tracked), so a tick reads exactly the open ones and never walks the keyspace.
 */
export class KeyvTrackedRequests implements TrackedRequestsStorage {
  constructor(
    private readonly records: Keyv,
    private readonly index: SortedIndex,
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
  }

  async *polled(): AsyncGenerator<string> {
    for (const { id } of await this.index.all()) yield id;
  }

  async *all(): AsyncGenerator<{ record: unknown; polled: boolean }> {
    const polled = new Set((await this.index.all()).map((e) => e.id));
    for await (const { id, value } of prefixedRecords(this.records, PREFIX)) yield { record: value, polled: polled.has(id) };
  }
}

const PREFIX = 'tracked:';
const key = (limitRequestId: string) => `${PREFIX}${limitRequestId}`;
/** When it was tracked (0 when that cannot be read): the index's order, oldest first. */
const scoreOf = (record: TrackedRequest) => {
  const ms = Date.parse(record.createdAt);
  return Number.isFinite(ms) ? ms : 0;
};
