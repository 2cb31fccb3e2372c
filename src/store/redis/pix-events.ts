import type { RedisClientType } from '@keyv/redis';
import {
  byUpdate,
  DISPUTE_KEEP_MS,
  type DisputeRecord,
  DisputeRecordSchema,
  type PixEventRecord,
  PixEventRecordSchema,
  type PixEventsRepo,
  parseStored,
  postedRecord,
} from '../pix-events';
import { scanStrings } from './client';

/**
 * A new event: its record (`SET NX`, `PX` its lifetime when it has one) and its place among the
 * pending ones (`ZADD`; none for a dropped event), one script, so that no failure between two commands
 * can leave a record that is not pending. A repeat: 0.
 * KEYS: the event, the pending set. ARGV: the record, its lifetime in ms ('': for good), its score, its hash, '1' when it is pending.
 */
const ADD = `
local set
if ARGV[2] == '' then set = redis.call('SET', KEYS[1], ARGV[1], 'NX')
else set = redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) end
if set then
  if ARGV[5] == '1' then redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4]) end
  return 1
end
return 0
`;

/** One string per event (`SET NX PX`), a sorted set of the pending ones, one string per dispute and a set of the open ones. */
export class RedisPixEvents implements PixEventsRepo {
  constructor(
    private readonly client: RedisClientType,
    private readonly prefix: string,
  ) {}

  private key = (hash: string) => `${this.prefix}:pix-event:${hash}`;
  private get pendingKey() {
    return `${this.prefix}:pix-events-pending`;
  }
  private disputeKey = (endToEndId: string) => `${this.prefix}:pix-dispute:${endToEndId}`;
  private get openKey() {
    return `${this.prefix}:pix-disputes-open`;
  }

  async add(record: PixEventRecord): Promise<boolean> {
    const keys = [this.key(record.hash), this.pendingKey];
    const reply = await this.client.eval(ADD, {
      keys,
      arguments: [
        JSON.stringify(record),
        // The key lapses with keptUntil (at least a millisecond: PX takes no less).
        record.keptUntil === undefined ? '' : String(Math.max(1, Date.parse(record.keptUntil) - Date.now())),
        String(Date.parse(record.receivedAt)),
        record.hash,
        record.dropped ? '0' : '1',
      ],
    });
    return reply === 1;
  }

  async get(hash: string) {
    return parseStored(PixEventRecordSchema, await this.client.get(this.key(hash)));
  }

  async update(record: PixEventRecord) {
    await this.client.set(this.key(record.hash), JSON.stringify(record), { condition: 'XX', expiration: 'KEEPTTL' });
  }

  async pending() {
    return this.client.zRange(this.pendingKey, 0, -1);
  }

  async markPosted(hash: string) {
    const record = await this.get(hash);
    const unlisted = this.client.multi();
    if (record && !record.postedAt) {
      unlisted.set(this.key(hash), JSON.stringify(postedRecord(record, new Date().toISOString())), {
        condition: 'XX',
        expiration: 'KEEPTTL',
      });
    }
    await unlisted.zRem(this.pendingKey, hash).exec();
  }

  async dispute(endToEndId: string) {
    return parseStored(DisputeRecordSchema, await this.client.get(this.disputeKey(endToEndId)));
  }

  /** A closed dispute is kept DISPUTE_KEEP_MS more (a late event still finds its root), an open one for good; its listing in the same step. */
  async saveDispute(record: DisputeRecord) {
    const key = this.disputeKey(record.endToEndId);
    const text = JSON.stringify(record);
    if (record.closed) {
      await this.client
        .multi()
        .set(key, text, { expiration: { type: 'PX', value: DISPUTE_KEEP_MS } })
        .sRem(this.openKey, record.endToEndId)
        .exec();
    } else {
      await this.client.multi().set(key, text).sAdd(this.openKey, record.endToEndId).exec();
    }
  }

  async openDisputes() {
    const ids = await this.client.sMembers(this.openKey);
    if (ids.length === 0) return [];
    const texts = await this.client.mGet(ids.map(this.disputeKey));
    return texts
      .map((t) => parseStored(DisputeRecordSchema, t))
      .filter((d): d is DisputeRecord => d !== undefined && !d.closed)
      .sort(byUpdate);
  }

  async *events(): AsyncGenerator<PixEventRecord> {
    for await (const { text } of scanStrings(this.client, this.key('*'))) {
      const record = parseStored(PixEventRecordSchema, text);
      if (record) yield record;
    }
  }

  async *disputes(): AsyncGenerator<DisputeRecord> {
    for await (const { text } of scanStrings(this.client, this.disputeKey('*'))) {
      const record = parseStored(DisputeRecordSchema, text);
      if (record) yield record;
    }
  }
}
