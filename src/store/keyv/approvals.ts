import type Keyv from 'keyv';
import type { ApprovalsStorage, StoredApproval } from '../approvals';
import type { SortedIndex } from '../sorted-index';
import { prefixedRecords } from './open';

/** Records under `approval:<id>` in the main namespace, and the backend's index of the ones with something left to do. */
export class KeyvApprovals implements ApprovalsStorage {
  constructor(
    private readonly records: Keyv,
    private readonly index: SortedIndex,
  ) {}

  get(id: string): Promise<unknown> {
    return this.records.get(key(id));
  }

  getMany(ids: string[]): Promise<unknown[]> {
    return this.records.getMany(ids.map(key));
  }

  async put(record: StoredApproval, due: number | undefined): Promise<void> {
    await this.records.set(key(record.id), record);
    if (due === undefined) await this.index.remove(record.id);
    else await this.index.put(record.id, due);
  }

  unlist(id: string): Promise<void> {
    return this.index.remove(id);
  }

  async due(nowMs: number, limit: number): Promise<string[]> {
    return ids(await this.index.range(nowMs, limit));
  }

  async listed(limit: number): Promise<string[]> {
    return ids(await this.index.all(limit));
  }

  count(): Promise<number> {
    return this.index.count();
  }

  async *all(): AsyncGenerator<{ record: unknown; due: number | undefined }> {
    const due = new Map((await this.index.all()).map((e) => [e.id, e.score]));
    for await (const { id, value } of prefixedRecords(this.records, PREFIX)) yield { record: value, due: due.get(id) };
  }
}

const PREFIX = 'approval:';
const key = (id: string) => `${PREFIX}${id}`;
const ids = (entries: Array<{ id: string }>) => entries.map((e) => e.id);
