import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { AuditEntry, StoredAuditEntry } from '../audit/entry';
import { PixOpsError } from '../errors';
import { StoredAccountAppSchema } from './account-apps';
import { StoredApprovalSchema } from './approvals';
import { StoreRefusedError } from './errors';
import { FilingIntentSchema } from './filing-intents';
import { describeIdentity, IDENTITY_RECORD, type StoreIdentity, sameStore } from './identity';
import type { OpenBackend } from './index';
import { canonicalJson, RecordsRepo, recordsOf } from './records';
import { TrackedRequestSchema } from './tracked-requests';

/** What was done with one kind of record. */
export interface KindCopied {
  kind: string;
  /** Written to the target by this run. */
  copied: number;
  /** Already in the target, the same (an earlier run). */
  already: number;
  /** In the target already and different there: the target's is kept (the app has gone on there). */
  kept: number;
}

/** The keyed records' kind that marks how far the audit trail of a source has been copied (never copied itself). */
const PROGRESS_KIND = 'store-copy';
/** What each store keeps of its own and never passes on: how far copies into it went, and its identity. */
const NOT_COPIED = new Set([PROGRESS_KIND, IDENTITY_RECORD.kind]);
/** Audit entries read and written at a time (one write is one transaction or script: all or none). */
const AUDIT_BATCH = 200;
const EPOCH = new Date(0);
const END = new Date('9999-12-31T23:59:59.999Z');

const ProgressSchema = z.object({
  /** The source's cursor of the last entry copied. */
  after: z.string().optional(),
  /** A batch being written: where it started and ended in the source, its last entry, and the target's newest entry before it. */
  pending: z
    .object({ after: z.string().optional(), through: z.string(), last: z.string(), targetNewest: z.string().optional() })
    .optional(),
});

const entryOf = ({ id: _, ...entry }: StoredAuditEntry): AuditEntry => entry;
const fingerprint = (entry: StoredAuditEntry) => canonicalJson(entryOf(entry));

/** A sealed value the source's secret cannot open: the copy is made with the wrong STORE_SECRET. */
export class WrongSecretError extends PixOpsError {
  override readonly name = 'WrongSecretError';
  readonly code = 'pixops_store_wrong_secret';
  constructor(what: string) {
    super(`STORE_SECRET does not open the source's ${what}: copy with the secret the source was written with`);
  }
}

/** FROM and TO are one store (or one is a copy of the other made by other means): copying would double its audit trail. */
export class SameStoreError extends StoreRefusedError {
  constructor(source: StoreIdentity) {
    super(`FROM_URL and TO_URL are the same store (${describeIdentity(source)}): nothing to copy`);
  }
}

/**
 * Copies everything from one store to another, each read through the source backend's parts and
 * written through the target's (sqlite, Redis or Postgres either side): tracked requests (polled as
 * they were), filing intents (indexed), approvals (with their place in the index), account AppIDs,
 * Pix events (posted or pending) and disputes, keyed records (their lifetime left), and the audit
 * trail in its order with its own times. Sealed values are copied as they are: both stores are opened
 * with the same secret, and the first of each kind is opened first to prove it.
 *
 * What is the same store is asked of the stores themselves (identity.ts), never of the URLs: a copy
 * onto itself, which would double the audit trail for good, is refused. Run again, nothing is copied
 * twice: a record already in the target is left as it is there (the same: counted `already`;
 * different: `kept`, since an app started on the target may have moved it on), and the audit trail
 * goes on after the last entry copied, which the target records (`store-copy` records, one per source
 * identity). A batch of the trail is marked before it is written, so a copy cut short is not written
 * twice: the batch either landed whole or not at all.
 */
export async function copyStore(
  from: OpenBackend,
  to: OpenBackend,
  options: { onKind?: (done: KindCopied) => void } = {},
): Promise<KindCopied[]> {
  const src = from.backend;
  const dst = to.backend;
  const source = await src.identity();
  const target = await dst.identity();
  if (sameStore(source, target)) throw new SameStoreError(source);
  const report: KindCopied[] = [];
  const kind = async (name: string, copy: (count: KindCopied) => Promise<void>) => {
    const count = { kind: name, copied: 0, already: 0, kept: 0 };
    await copy(count);
    report.push(count);
    options.onKind?.(count);
  };
  /** Writes `record` when the target has none; else counts whether the target's is the same. */
  const settle = async (count: KindCopied, existing: unknown, record: unknown, write: () => Promise<unknown>) => {
    if (existing === undefined) {
      await write();
      count.copied++;
    } else if (canonicalJson(existing) === canonicalJson(record)) count.already++;
    else count.kept++;
  };
  const opens = (what: string, sealed: string, context: string) => {
    try {
      from.box.open(sealed, context);
    } catch {
      throw new WrongSecretError(what);
    }
  };

  await kind('tracked requests', async (count) => {
    for await (const { record, polled } of src.trackedRequests.all()) {
      const request = TrackedRequestSchema.parse(record);
      await settle(count, await dst.trackedRequests.get(request.limitRequestId), request, () => dst.trackedRequests.put(request, polled));
    }
  });

  await kind('filing intents', async (count) => {
    const scores = new Map((await src.filingIntents.indexed()).map((e) => [e.id, e.score]));
    for await (const record of src.filingIntents.all()) {
      const intent = FilingIntentSchema.parse(record);
      const score = scores.get(intent.intentId) ?? (Date.parse(intent.createdAt) || Date.now());
      await settle(count, await dst.filingIntents.get(intent.intentId), intent, () => dst.filingIntents.put(intent, score));
    }
  });

  await kind('approvals', async (count) => {
    let checked = false;
    for await (const { record, due } of src.approvals.all()) {
      const approval = StoredApprovalSchema.parse(record);
      if (!checked) opens('approvals', approval.sealedPayload, `approval:${approval.id}`);
      checked = true;
      await settle(count, await dst.approvals.get(approval.id), approval, () => dst.approvals.put(approval, due));
    }
  });

  await kind('account AppIDs', async (count) => {
    let checked = false;
    for await (const record of src.accountApps.all()) {
      const app = StoredAccountAppSchema.parse(record);
      if (!checked) opens('AppIDs', app.sealedAppId, `account-app:${app.accountId}`);
      checked = true;
      await settle(count, await dst.accountApps.get(app.accountId), app, () => dst.accountApps.put(app));
    }
  });

  await kind('Pix events', async (count) => {
    for await (const event of src.pixEvents.events()) {
      const added = await dst.pixEvents.add(event);
      // Marked whether or not it was just added: a copy cut short between the two left it pending, to be posted again.
      if (event.postedAt) await dst.pixEvents.markPosted(event.hash);
      if (added) count.copied++;
      else await settle(count, await dst.pixEvents.get(event.hash), event, async () => undefined);
    }
  });

  await kind('disputes', async (count) => {
    for await (const dispute of src.pixEvents.disputes()) {
      await settle(count, await dst.pixEvents.dispute(dispute.endToEndId), dispute, () => dst.pixEvents.saveDispute(dispute));
    }
  });

  await kind('keyed records', async (count) => {
    for await (const r of src.records.all()) {
      if (NOT_COPIED.has(r.kind)) continue;
      if (await dst.records.setIfAbsent(r.kind, r.key, r.text, r.ttlMs)) count.copied++;
      else {
        const there = await dst.records.get(r.kind, r.key);
        if (there === r.text) count.already++;
        else count.kept++;
      }
    }
  });

  await kind('audit trail', async (count) => {
    const marks = recordsOf(new RecordsRepo(dst.records), PROGRESS_KIND, ProgressSchema);
    const key = createHash('sha256').update(source.id).digest('hex');
    const newestInTarget = async () => (await dst.audit.newest({ since: EPOCH, limit: 1 }))[0];
    let progress = (await marks.get(key)) ?? {};
    if (progress.pending) {
      // A run cut short while it wrote a batch: the batch landed whole (the target's newest entry is
      // its last) or not at all.
      const { pending } = progress;
      const newest = await newestInTarget();
      const landed = newest !== undefined && newest.id !== pending.targetNewest && fingerprint(newest) === pending.last;
      progress = landed ? { after: pending.through } : pending.after === undefined ? {} : { after: pending.after };
      await marks.set(key, progress);
    }
    const bounds = await src.audit.bounds(EPOCH, END);
    if (!bounds) return;
    const range = { from: EPOCH, to: END, ...bounds };
    for (;;) {
      const batch = await src.audit.batch(range, progress.after, AUDIT_BATCH);
      if (batch.length === 0) return;
      const last = batch[batch.length - 1]!;
      const targetNewest = (await newestInTarget())?.id;
      await marks.set(key, {
        ...progress,
        pending: {
          ...(progress.after === undefined ? {} : { after: progress.after }),
          through: last.id,
          last: fingerprint(last),
          ...(targetNewest === undefined ? {} : { targetNewest }),
        },
      });
      await dst.audit.write(batch.map(entryOf));
      progress = { after: last.id };
      await marks.set(key, progress);
      count.copied += batch.length;
      if (batch.length < AUDIT_BATCH) return;
    }
  });

  return report;
}

/** A count as a line of the copy's output: `audit trail: 1234`, and what was already there. */
export function countLine(c: KindCopied): string {
  const notes = [
    ...(c.already > 0 ? [`${c.already} already there`] : []),
    ...(c.kept > 0 ? [`${c.kept} kept as the target has them`] : []),
  ];
  return `${c.kind}: ${c.copied}${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
}
