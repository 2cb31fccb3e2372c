import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type OpenBackend, openBackend, openStore } from '../../src/store';
import type { AuditBackend } from '../../src/store/audit-trail';
import { copyStore, countLine, type KindCopied, SameStoreError, WrongSecretError } from '../../src/store/copy';
import { postgresBackend, redisBackend, sqliteBackend } from '../support/store-backends';
import type { BackendUnderTest, Space } from './contract';
import { SECRET } from './contract';
import { AUDIT_ENTRIES, auditOf, fillEverything, readEverything } from './contract/everything';

const counts = (report: KindCopied[]) => Object.fromEntries(report.map((c) => [c.kind, c.copied]));
const EVERYTHING = {
  'tracked requests': 2,
  'filing intents': 1,
  approvals: 2,
  'account AppIDs': 1,
  'Pix events': 2,
  disputes: 2,
  'keyed records': 2,
  'audit trail': AUDIT_ENTRIES,
};

/** The backend's parts with the audit trail's writes going through `write` (to cut a copy short). */
function withAuditWrite(opened: OpenBackend, write: (audit: AuditBackend, entries: Parameters<AuditBackend['write']>[0]) => Promise<void>) {
  const audit = opened.backend.audit;
  const wrapped: AuditBackend = {
    cursor: audit.cursor,
    write: (entries) => write(audit, entries),
    newest: (q) => audit.newest(q),
    newerThan: (q) => audit.newerThan(q),
    bounds: (from, to) => audit.bounds(from, to),
    batch: (range, after, limit) => audit.batch(range, after, limit),
  };
  return { ...opened, backend: { ...opened.backend, audit: wrapped } };
}

/**
 * `copyStore` between every pair that matters (sqlite, Redis and Postgres either side): everything
 * read back the same through the target's repositories, the audit trail in its order with its times;
 * run again, nothing copied twice; a copy cut short in the middle of the trail finished without a
 * duplicate.
 */
describe.each<[string, string, BackendUnderTest, BackendUnderTest]>(
  [
    [sqliteBackend, postgresBackend],
    [postgresBackend, sqliteBackend],
    [redisBackend, postgresBackend],
    [postgresBackend, redisBackend],
  ].map(([a, b]) => [a!.name, b!.name, a!, b!]),
)('copying a store from %s to %s', (_from, _to, source, target) => {
  let from: Space;
  let to: Space;
  beforeEach(async () => {
    [from, to] = await Promise.all([source.space(), target.space()]);
  });
  afterEach(async () => {
    await Promise.all([from.dispose(), to.dispose()]);
  });

  test('everything read back the same from the target; run again, nothing is copied twice', async () => {
    const source = await from.open();
    await fillEverything(source);
    // A claim still held (a Slack delivery's lasts an hour after the app last ran): a lease, not copied.
    expect(await source.claim('delivery:Ev0STILLHELD', 60 * 60_000)).toBe(true);
    const first = await copyStore(await from.openBackend(), await to.openBackend());
    expect(counts(first)).toEqual(EVERYTHING);
    expect(first.every((c) => c.already === 0 && c.kept === 0)).toBe(true);
    const expected = await readEverything(await from.open());
    expect(expected.audit).toHaveLength(AUDIT_ENTRIES);
    expect(await readEverything(await to.open())).toEqual(expected);

    const again = await copyStore(await from.openBackend(), await to.openBackend());
    expect(again.map(countLine)).toEqual(
      Object.entries(EVERYTHING).map(([kind, n]) => (kind === 'audit trail' ? 'audit trail: 0' : `${kind}: 0 (${n} already there)`)),
    );
    expect(await readEverything(await to.open())).toEqual(expected);
  });

  test('cut short in the middle of the audit trail (a batch that failed, or one that landed without its mark): finished on the next run, nothing twice', async () => {
    await fillEverything(await from.open());
    let writes = 0;
    const failing = withAuditWrite(await to.openBackend(), async (audit, entries) => {
      if (++writes === 2) throw new Error('connection lost');
      await audit.write(entries);
    });
    await expect(copyStore(await from.openBackend(), failing)).rejects.toThrow('connection lost');
    // The next batch lands, and the run dies before it records so.
    writes = 0;
    const dying = withAuditWrite(await to.openBackend(), async (audit, entries) => {
      await audit.write(entries);
      if (++writes === 1) throw new Error('killed');
    });
    await expect(copyStore(await from.openBackend(), dying)).rejects.toThrow('killed');
    const finished = await copyStore(await from.openBackend(), await to.openBackend());
    expect(counts(finished)['audit trail']).toBe(AUDIT_ENTRIES - 400);
    expect(await auditOf(await to.open())).toEqual(await auditOf(await from.open()));
  });
});

describe.each([sqliteBackend, redisBackend, postgresBackend])('copying a store onto itself on $name', (backend) => {
  let space: Space;
  beforeEach(async () => {
    space = await backend.space();
  });
  afterEach(() => space.dispose());

  test('refused (the stores say they are one, whatever reached them), before anything is written', async () => {
    await fillEverything(await space.open());
    const before = await readEverything(await space.open());
    await expect(copyStore(await space.openBackend({ existing: true }), await space.openBackend())).rejects.toThrow(
      /^FROM_URL and TO_URL are the same store \(store [0-9a-f-]{36}/,
    );
    await expect(copyStore(await space.openBackend(), await space.openBackend())).rejects.toBeInstanceOf(SameStoreError);
    expect(await readEverything(await space.open())).toEqual(before);
  });
});

describe('copying with the wrong STORE_SECRET', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-copy-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  test('refused at the first sealed value, naming STORE_SECRET; nothing sealed reaches the target', async () => {
    const url = `sqlite://${path.join(dir, 'source.sqlite')}`;
    const store = await openStore({ url, secret: SECRET });
    await fillEverything(store);
    await store.close();
    const wrong = 'w'.repeat(40);
    const from = await openBackend({ url, secret: wrong });
    const to = await openBackend({ url: `sqlite://${path.join(dir, 'target.sqlite')}`, secret: wrong });
    try {
      await expect(copyStore(from, to)).rejects.toBeInstanceOf(WrongSecretError);
      await expect(copyStore(from, to)).rejects.toThrow(/STORE_SECRET/);
      expect(await to.backend.approvals.get('pending-1')).toBeUndefined();
    } finally {
      await from.close();
      await to.close();
    }
  });
});
