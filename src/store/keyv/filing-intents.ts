import type Keyv from 'keyv';
import { StoreMisuseError } from '../errors';
import type { FilingIntent, FilingIntentsStorage } from '../filing-intents';
import type { IndexEntry, SortedIndex } from '../sorted-index';

/** Each intent under its id in a namespace of its own (`<namespace>-intents`), and the backend's index of them. */
export class KeyvFilingIntents implements FilingIntentsStorage {
  constructor(
    private readonly intents: Keyv,
    private readonly sorted: SortedIndex,
  ) {}

  get(intentId: string): Promise<unknown> {
    return this.intents.get(intentId);
  }

  async put(intent: FilingIntent, score: number): Promise<void> {
    await this.sorted.put(intent.intentId, score);
    await this.intents.set(intent.intentId, intent);
  }

  async delete(intentId: string): Promise<void> {
    await this.intents.delete(intentId);
    await this.sorted.remove(intentId);
  }

  indexed(): Promise<IndexEntry[]> {
    return this.sorted.all();
  }

  unindex(intentId: string): Promise<void> {
    return this.sorted.remove(intentId);
  }

  async *all(): AsyncGenerator<unknown> {
    if (!this.intents.iterator) throw new StoreMisuseError('This store cannot list keys');
    for await (const [, value] of this.intents.iterator(undefined)) yield value;
  }
}
