import type { RedisClientType } from '@keyv/redis';
import { type AuditEntry, type StoredAuditEntry, storedEntry } from '../../audit/entry';
import type { AuditBackend } from '../audit-trail';

/**
 * Appends entries to the stream with ids from their own time (`<ms>-*`), so that the id order is
 * the time order and a period is a range of ids. An entry whose clock is behind the stream's newest
 * entry takes that entry's millisecond (its `time` field stays its own): ids never go backwards.
 * ARGV: for each entry, its milliseconds, its number of field-value pairs, then the pairs.
 */
const APPEND_SCRIPT = `
local top = redis.call('XREVRANGE', KEYS[1], '+', '-', 'COUNT', 1)
local last = '0'
if #top > 0 then last = string.match(top[1][1], '^(%d+)') end
local i = 1
while i <= #ARGV do
  local ms = ARGV[i]
  local n = tonumber(ARGV[i + 1])
  if tonumber(ms) < tonumber(last) then ms = last end
  redis.call('XADD', KEYS[1], ms .. '-*', unpack(ARGV, i + 2, i + 1 + 2 * n))
  last = ms
  i = i + 2 + 2 * n
end
return 1
`;

const FIELDS: Array<keyof AuditEntry> = [
  'time',
  'user',
  'role',
  'action',
  'target',
  'pixMethod',
  'pixPath',
  'pixStatus',
  'maker',
  'checker',
  'outcome',
  'detail',
];

const fromStream = ({ id, message }: { id: string; message: Record<string, string> }): StoredAuditEntry => storedEntry(id, message);

/**
 * A Redis stream (`<namespace>:audit`) shared by every instance: each batch of appends is one script,
 * run atomically, so one instance's entries stay in order and none is lost between instances. Never
 * trimmed: what is written stays.
 */
export class RedisAuditBackend implements AuditBackend {
  constructor(
    private readonly client: RedisClientType,
    private readonly key: string,
  ) {}

  async write(entries: AuditEntry[]): Promise<void> {
    const args: string[] = [];
    for (const entry of entries) {
      const pairs = FIELDS.flatMap((f) => (entry[f] === undefined ? [] : [f, String(entry[f])]));
      args.push(String(Date.parse(entry.time)), String(pairs.length / 2), ...pairs);
    }
    await this.client.eval(APPEND_SCRIPT, { keys: [this.key], arguments: args });
  }

  readonly cursor = /^\d{1,15}-\d{1,19}$/;

  async newest(q: { since: Date; before?: string; limit: number }): Promise<StoredAuditEntry[]> {
    const end = q.before === undefined ? '+' : `(${q.before}`;
    const rows = await this.client.xRevRange(this.key, end, String(q.since.getTime()), { COUNT: q.limit });
    return rows.map(fromStream);
  }

  async newerThan(q: { since: Date; after: string; top?: string; limit: number }): Promise<StoredAuditEntry[]> {
    const rows = await this.client.xRange(this.key, `(${q.after}`, q.top ?? '+', { COUNT: q.limit });
    return rows.map(fromStream);
  }

  async bounds(from: Date, to: Date): Promise<{ low: string; high: string } | undefined> {
    // A bare millisecond is `<ms>-0` as a start and `<ms>-<last>` as an end: [from, to − 1 ms] is [from, to).
    const [start, end] = [String(from.getTime()), String(to.getTime() - 1)];
    const [first] = await this.client.xRange(this.key, start, end, { COUNT: 1 });
    const [last] = await this.client.xRevRange(this.key, end, start, { COUNT: 1 });
    return first && last ? { low: first.id, high: last.id } : undefined;
  }

  async batch(
    range: { from: Date; to: Date; low: string; high: string },
    after: string | undefined,
    limit: number,
  ): Promise<StoredAuditEntry[]> {
    const rows = await this.client.xRange(this.key, after === undefined ? range.low : `(${after}`, range.high, { COUNT: limit });
    return rows.map(fromStream);
  }
}
