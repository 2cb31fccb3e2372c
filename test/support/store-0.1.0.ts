import { copyFileSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { createClient, type RedisClientType } from '@keyv/redis';
import { Client } from 'pg';
import { delegationsIn } from '../../src/approvals/delegations-repo';
import type { Store } from '../../src/store';
import type { NewApproval } from '../../src/store/approvals';
import { BalanceMarks } from '../../src/store/balance-marks';
import { DigestSlots } from '../../src/store/digest-slots';
import { poolConfig, schemaOf } from '../../src/store/postgres/db';
import { loadMigrations, migrate } from '../../src/store/postgres/migrate';
import { APP_ID } from '../store/contract/account-apps';
import { auditEntry } from '../store/contract/audit-trail';
import { auditOf } from '../store/contract/everything';
import { pixEvent } from '../store/contract/pix-events';
import { trackedRequest } from '../store/contract/tracked-requests';
import { PG_URL } from './postgres';

/**
 * A 0.1.0 store, as test/fixtures/store-0.1.0/ keeps it for each backend: what fills it (`fill`, run
 * once by the generator beside the fixtures), how a fixture is loaded into a fresh place, and what the
 * store gives back through its repositories (`readBack`), which the upgrade test holds to what 0.1.0
 * read back (read-back.json).
 */

export const FIXTURE_DIR = path.resolve(__dirname, '../fixtures/store-0.1.0');
/** The secret the fixtures' AppIDs and payloads are sealed with (a test's, like every other here). */
export const FIXTURE_SECRET = 's'.repeat(40);
/** The clock of the store's writes while it was filled (Date alone is held there): every time it records is this one. */
export const FILLED_AT = new Date('2026-12-04T12:00:00.000Z');
/** Each backend's format version at 0.1.0 (Postgres: its last migration). */
export const VERSION_0_1_0 = { sqlite: 1, redis: 1, postgres: 2 } as const;
/** A claim held when the store was stopped, where claims outlive the process (Redis, Postgres). */
export const HELD_CLAIM = 'delivery:Ev0FIXTURE01';
/** A lifetime past any test run (a digest slot's and a claim's, so that the fixture never lapses). */
const FOR_DECADES_MS = 50 * 365 * 86_400_000;

const at = (minutes: number) => new Date(FILLED_AT.getTime() + minutes * 60_000).toISOString();
const ACCOUNT = '6840aeca23c0d1fe48c856a3';
const SLOT = '2026-12-04T12:00:00.000Z';
const REQUEST_IDS = ['in-review', 'decided', 'unreadable'];
const APPROVAL_IDS = ['pending', 'two-checkers', 'approving', 'done', 'failed', 'rejected', 'cancelled', 'expired'];
const EVENT_HASHES = ['event-pending', 'event-posted'];
const DISPUTES = ['E-open', 'E-closed'];

/** Every repository with a bit of everything it keeps, each state of an approval among them. */
export async function fill(store: Store): Promise<void> {
  await store.trackedRequests.track({ ...trackedRequest('in-review'), rootTs: '1764849600.000100', createdAt: at(-60) });
  await store.trackedRequests.track({
    ...trackedRequest('decided'),
    current: { pixDayLimit: 100_000 },
    requested: { pixDayLimit: 700_000 },
    documents: [{ fileName: 'proof.pdf', contentType: 'application/pdf' }],
    approval: { makerId: 'U0MAKER01', checkerId: 'U0CHECK01', approvedAt: at(-50) },
    createdAt: at(-55),
  });
  await store.trackedRequests.attachRoot('decided', { channel: 'C0FINANCE1', ts: '1764849601.000200' });
  await store.trackedRequests.recordReply('decided', { ts: '1764849602.000300', status: 'APPROVED', approved: { pixDayLimit: 700_000 } });
  await store.trackedRequests.close('decided');
  await store.trackedRequests.track({ ...trackedRequest('unreadable'), source: 'watched', createdAt: at(-40) });
  await store.trackedRequests.noteUnreadable('unreadable', 404, 'not found', new Date(at(-30)));

  await store.filingIntents.record({
    intentId: 'intent-1',
    requesterId: 'U0REQUEST1',
    channel: 'C0FINANCE1',
    accountId: ACCOUNT,
    current: { pixDayLimit: 100_000 },
    requested: { pixDayLimit: 200_000 },
    documents: [{ fileName: 'proof.pdf', contentType: 'application/pdf' }],
    createdAt: at(-5),
    approval: { makerId: 'U0MAKER01', checkerId: 'U0CHECK01', approvedAt: at(-6), root: { channel: 'C0APPROVE', ts: '1764849603.000400' } },
  });

  const approval = async (
    id: string,
    payload: NewApproval['payload'],
    extra: Partial<Pick<NewApproval, 'remindAt' | 'escalateAt' | 'required'>> = {},
  ) => {
    await store.approvals.create({
      id,
      makerId: 'U0MAKER01',
      makerLocale: 'pt-BR',
      channel: 'C0APPROVE',
      payload,
      expiresAt: at(24 * 60),
      ...extra,
    });
    await store.approvals.update(id, (r) => ({ ...r, rootTs: `1764849610.${id.length.toString().padStart(6, '0')}` }));
  };
  const keyAdd = { action: 'key-add' as const, accountId: ACCOUNT, pixKey: 'fixture@example.com', type: 'EMAIL' };
  await approval('pending', keyAdd, { remindAt: at(60), escalateAt: at(120) });
  await approval('two-checkers', { action: 'key-delete', accountId: ACCOUNT, pixKey: '+5511987654321' }, { required: 2 });
  await store.approvals.update('two-checkers', (r) => ({ ...r, approvedBy: [{ userId: 'U0CHECK01', at: at(1) }] }));
  await approval('approving', {
    action: 'limit-request',
    accountId: ACCOUNT,
    limits: { pixDayLimit: 900_000 },
    current: { pixDayLimit: 100_000 },
    files: [{ id: 'F0PROOF01', name: 'proof.pdf' }],
  });
  await store.approvals.update('approving', (r) => ({
    ...r,
    state: 'approving',
    checkerId: 'U0CHECK01',
    decidedAt: at(2),
    intent: { step: 'file', at: at(3), data: { filed: ['lr-1'] } },
  }));
  await approval('done', { action: 'account-create', name: 'Black Friday' });
  await store.approvals.update('done', (r) => ({
    ...r,
    state: 'done',
    checkerId: 'U0CHECK01',
    outcome: { limitRequestId: 'lr-2' },
    settled: true,
  }));
  await approval('failed', { action: 'rotate-secret', clientId: 'client-1' });
  await store.approvals.update('failed', (r) => ({
    ...r,
    state: 'failed',
    checkerId: 'U0CHECK01',
    outcome: { problem: 'The Pix API refused it.' },
  }));
  await approval('rejected', { action: 'withdraw-key', accountId: ACCOUNT, pixKey: 'withdraw@example.com' });
  await store.approvals.update('rejected', (r) => ({
    ...r,
    state: 'rejected',
    checkerId: 'U0DELEGATE',
    checkerFor: 'U0CHECK01',
    reason: 'not this week',
    settled: true,
  }));
  await approval('cancelled', keyAdd);
  await store.approvals.update('cancelled', (r) => ({ ...r, state: 'cancelled', checkerId: 'U0MAKER01', settled: true }));
  await approval('expired', keyAdd, { remindAt: at(1) });
  await store.approvals.update('expired', (r) => ({ ...r, state: 'expired', reminders: 1, settled: true }));

  await store.accountApps.save({ accountId: ACCOUNT, appId: APP_ID, clientId: 'client-1', name: 'Black Friday' });
  await store.accountApps.markStale(ACCOUNT, new Date(at(-1)));
  await store.accountApps.save({ accountId: 'a'.repeat(24), appId: 'PENDING-APP-ID', uncertainSince: at(-2) });

  await store.pixEvents.add(pixEvent('event-pending', at(-3)));
  await store.pixEvents.add({ ...pixEvent('event-posted', at(-4)), attemptedAt: at(-4) });
  await store.pixEvents.markPosted('event-posted');
  await store.pixEvents.saveDispute({
    endToEndId: 'E-open',
    channel: 'C0EVENTS',
    rootTs: '1764849620.000100',
    closed: false,
    firstAt: at(-4),
    updatedAt: at(-4),
    status: 'OPENED',
    value: 1500,
    events: ['event-posted'],
  });
  await store.pixEvents.saveDispute({
    endToEndId: 'E-closed',
    channel: 'C0EVENTS',
    closed: true,
    firstAt: at(-9),
    updatedAt: at(-8),
    status: 'ACCEPTED',
  });

  const delegations = delegationsIn(store);
  await delegations.set('U0ABEL', { delegate: 'U0BRUNO', until: '2099-12-31', setAt: at(-7) }, FILLED_AT);
  const slots = new DigestSlots(store.records, FOR_DECADES_MS);
  await slots.claim(SLOT, 'instance-1', 60_000, FILLED_AT.getTime());
  await slots.finish(SLOT, 'instance-1', { state: 'posted', ts: '1764849630.000100' }, FILLED_AT.getTime());
  const marks = new BalanceMarks(store.records);
  await marks.first(ACCOUNT, { below: false, blocked: false, pending: [] });
  await marks.move(
    ACCOUNT,
    { below: false, blocked: false, pending: [] },
    { below: true, blocked: false, pending: [{ id: 'alert-1', kind: 'below', available: 120_000, threshold: 500_000, at: at(-1) }] },
  );

  await store.audit.append(
    auditEntry(0, at(-60), {
      target: `account:${ACCOUNT} key:***.982.247-**`,
      pixMethod: 'DELETE',
      pixPath: '/api/v1/pix-keys/***.982.247-**',
      pixStatus: 204,
      maker: 'U0MAKER01',
      checker: 'U0CHECK01',
      outcome: 'approved',
      detail: 'needs admin',
    }),
  );
  // Times not in the order of appends (another instance's clock behind): the trail keeps both.
  for (const [i, minutes] of [-10, -30, -20, -5].entries()) await store.audit.append(auditEntry(i + 1, at(minutes)));
  if (store.shared) await store.claim(HELD_CLAIM, FOR_DECADES_MS);
}

/** What the store gives back of `fill`, through its repositories, at the time it was filled. */
export async function readBack(store: Store) {
  const slots = new DigestSlots(store.records);
  const all = async <T>(ids: string[], read: (id: string) => Promise<T>) =>
    Object.fromEntries(await Promise.all(ids.map(async (id) => [id, await read(id)] as const)));
  // Read before `pending()`, which prunes posted events a week old.
  const events = await all(EVENT_HASHES, (h) => store.pixEvents.get(h));
  return {
    tracked: {
      open: (await store.trackedRequests.openIds()).sort(),
      records: await all(REQUEST_IDS, (id) => store.trackedRequests.get(id)),
    },
    intents: await store.filingIntents.list(FILLED_AT.getTime()),
    approvals: {
      open: await store.approvals.openIds(),
      due: await store.approvals.dueIds(FILLED_AT.getTime()),
      records: await all(APPROVAL_IDS, (id) => store.approvals.get(id)),
    },
    apps: {
      byAccount: await all([ACCOUNT, 'a'.repeat(24)], (id) => store.accountApps.get(id)),
      byClient: await store.accountApps.findByClientId('client-1'),
    },
    events: { records: events, pending: await store.pixEvents.pending() },
    disputes: {
      records: await all(DISPUTES, (e) => store.pixEvents.dispute(e)),
      open: (await store.pixEvents.openDisputes()).map((d) => d.endToEndId),
    },
    delegations: await delegationsIn(store).active(FILLED_AT),
    digest: { slot: await slots.get(SLOT), latest: await slots.latest() },
    balanceMarks: Object.fromEntries(await new BalanceMarks(store.records).all(100)),
    audit: await auditOf(store),
  };
}

/** A sqlite fixture into `dir` (a fresh place): the store's URL there. */
export function loadSqlite(dir: string): string {
  const file = path.join(dir, 'pix-ops.sqlite');
  copyFileSync(path.join(FIXTURE_DIR, 'pix-ops.sqlite'), file);
  return `sqlite://${file}`;
}

/** The namespace in the Redis and Postgres fixtures' text, replaced by the place they are loaded into. */
export const PLACEHOLDER = { namespace: '<namespace>', schema: '<schema>' } as const;

export interface RedisKey {
  key: string;
  type: 'string' | 'zset' | 'set' | 'stream';
  /** A string's value. */
  value?: string;
  /** A sorted set's members with their scores; a set's members (score 0). */
  members?: Array<{ value: string; score: number }>;
  /** A stream's entries, with their ids. */
  entries?: Array<{ id: string; message: Record<string, string> }>;
  /** What was left of its lifetime when it was dumped. */
  ttlMs?: number;
}

/** The Redis fixture into the namespace `namespace` of `url`. */
export async function loadRedis(url: string, namespace: string): Promise<void> {
  const keys = JSON.parse(readFileSync(path.join(FIXTURE_DIR, 'redis.json'), 'utf8')) as RedisKey[];
  const client = createClient({ url }) as unknown as RedisClientType;
  await client.connect();
  try {
    for (const k of keys) {
      const key = k.key.split(PLACEHOLDER.namespace).join(namespace);
      if (k.type === 'string') await client.set(key, k.value!);
      else if (k.type === 'zset') await client.zAdd(key, k.members!);
      else if (k.type === 'set')
        await client.sAdd(
          key,
          k.members!.map((m) => m.value),
        );
      else for (const e of k.entries!) await client.xAdd(key, e.id, e.message);
      if (k.ttlMs !== undefined) await client.pExpire(key, k.ttlMs);
    }
  } finally {
    await client.close();
  }
}

/** The Postgres fixture into the schema of `namespace`: migrations 001 and 002 (0.1.0's), then its rows. */
export async function loadPostgres(namespace: string): Promise<void> {
  const schema = schemaOf(namespace);
  const migrations = loadMigrations().filter((m) => m.version <= VERSION_0_1_0.postgres);
  await migrate(poolConfig(PG_URL, { poolMax: 1, timeoutMs: 10_000 }), schema, migrations);
  const client = new Client({ connectionString: PG_URL });
  await client.connect();
  try {
    // The identity the migrations just made: the fixture's own, 0.1.0's, takes its place.
    await client.query(`DELETE FROM "${schema}".records`);
    await client.query(readFileSync(path.join(FIXTURE_DIR, 'postgres.sql'), 'utf8').split(PLACEHOLDER.schema).join(schema));
  } finally {
    await client.end();
  }
}
