import type Keyv from 'keyv';
import type { TrackedRequest, TrackedRequestsStorage } from '../tracked-requests';
import { keysOf, prefixedRecords } from './open';

/**
 * Records under `tracked:<id>` in the main namespace; the ids to poll as keys of a namespace of their
 * own (`<namespace>-poll`), so a tick lists exactly the open ones however many were closed before.
 */
export class KeyvTrackedRequests implements TrackedRequestsStorage {
  constructor(
    private readonly records: Keyv,
    private readonly pollSet: Keyv,
  ) {}

  get(limitRequestId: string): Promise<unknown> {
    return this.records.get(key(limitRequestId));
  }

  getMany(limitRequestIds: string[]): Promise<unknown[]> {
    return this.records.getMany(limitRequestIds.map(key));
  }

  async put(record: TrackedRequest, poll?: boolean): Promise<void> {
    await this.records.set(key(record.limitRequestId), record);
    if (poll === true) await this.pollSet.set(record.limitRequestId, true);
    else if (poll === false) await this.pollSet.delete(record.limitRequestId);
  }

  async delete(limitRequestId: string): Promise<void> {
    await this.pollSet.delete(limitRequestId);
    await this.records.delete(key(limitRequestId));
  }

  async unpoll(limitRequestId: string): Promise<void> {
    await this.pollSet.delete(limitRequestId);
  }

  async *polled(): AsyncGenerator<string> {
    yield* keysOf(this.pollSet);
  }

  async *all(): AsyncGenerator<{ record: unknown; polled: boolean }> {
    const polled = new Set<string>();
    for await (const id of keysOf(this.pollSet)) polled.add(id);
    for await (const { id, value } of prefixedRecords(this.records, PREFIX)) yield { record: value, polled: polled.has(id) };
  }
}

const PREFIX = 'tracked:';
const key = (limitRequestId: string) => `${PREFIX}${limitRequestId}`;
