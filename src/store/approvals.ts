import { z } from 'zod';
import { APPROVAL_ACTIONS, ApprovalGivenSchema, type ApprovalPayload, ApprovalPayloadSchema } from '../domain/approvals';
import { NoSuchRecordError } from './errors';
import type { SecretBox } from './secret-box';

/**
 * `pending → approving → done | failed`, and `pending → rejected | cancelled | expired`. Every move
 * out of `pending` (and the work in `approving`) happens under the claim `approval:<id>`.
 */
export const ApprovalStateSchema = z.enum(['pending', 'approving', 'done', 'failed', 'rejected', 'cancelled', 'expired']);
export type ApprovalState = z.infer<typeof ApprovalStateSchema>;
export const OPEN_STATES: readonly ApprovalState[] = ['pending', 'approving'];

const StoredIntentSchema = z.object({
  /** Which write is about to be made (each action names its own steps). */
  step: z.string(),
  at: z.string(),
  /** What the action needs to tell afterwards whether the write happened (a snapshot), sealed. */
  sealedData: z.string().optional(),
});

/** At most this many checkers approve one action. */
const MAX_CHECKERS = 2;

export const StoredApprovalSchema = z.object({
  id: z.string(),
  action: z.enum(APPROVAL_ACTIONS),
  makerId: z.string(),
  /** The maker's language: the root and its thread are in it, like every message they cause. */
  makerLocale: z.enum(['pt-BR', 'en']),
  channel: z.string(),
  /** The pending root's ts; empty until it is posted. */
  rootTs: z.string(),
  state: ApprovalStateSchema,
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Who approved or rejected it (the maker, for a cancel), and when: the decision that ended `pending`. */
  checkerId: z.string().optional(),
  decidedAt: z.string().optional(),
  /** The away approver a delegate's decision was made for (a reject; approvals say it in `approvedBy`). */
  checkerFor: z.string().optional(),
  /** How many distinct checkers must approve it, as it was asked (APPROVAL_QUORUM_*); unset: one. */
  required: z.number().int().min(1).max(MAX_CHECKERS).optional(),
  /** The approvals given, in order: who, when, and whom a delegate gave it for. */
  approvedBy: z.array(ApprovalGivenSchema).max(MAX_CHECKERS).optional(),
  /** The channel the maker asked in, when the root went elsewhere (their DM): where the approvers are. */
  askedIn: z.string().optional(),
  reason: z.string().optional(),
  /** The last write about to be made in `approving`: recorded before it, read after a crash. */
  intent: StoredIntentSchema.optional(),
  /** How an approved action ended: its failure in the maker's words, or what it made. */
  outcome: z.object({ problem: z.string().optional(), limitRequestId: z.string().optional() }).optional(),
  /** The root (and, for a failure or a rejection, its thread) shows the final state: nothing left to do. */
  settled: z.boolean().optional(),
  /** Reminders posted in the root's thread so far (APPROVAL_REMIND_AFTER). */
  reminders: z.number().int().min(0).optional(),
  /** When the next reminder is due while pending; unset: none (off, or all were posted). */
  remindAt: z.string().optional(),
  /** The reminder about to be posted: set before the post, so a run cut short looks for it before posting again. */
  reminding: z.number().int().min(1).optional(),
  /** When the escalation is due while pending; unset: none (off, or posted). Changed under the claim, like reminders. */
  escalateAt: z.string().optional(),
  /** The escalation about to be posted: set before the post, so a run cut short looks for it before posting again. */
  escalating: z.boolean().optional(),
  /** When the escalation was posted. */
  escalatedAt: z.string().optional(),
  /** Money out: the source account's available balance (cents) read when it was asked, shown on its root. */
  askedBalance: z.object({ available: z.number().int(), at: z.string() }).optional(),
  /** The payload (Pix keys, names, amounts), sealed like stored AppIDs. */
  sealedPayload: z.string(),
  updatedAt: z.string(),
});
export type StoredApproval = z.infer<typeof StoredApprovalSchema>;

export interface ApprovalIntent {
  step: string;
  at: string;
  data?: unknown;
}

export type ApprovalRecord = Omit<StoredApproval, 'sealedPayload' | 'intent'> & { payload: ApprovalPayload; intent?: ApprovalIntent };
export type NewApproval = Pick<
  ApprovalRecord,
  'id' | 'makerId' | 'makerLocale' | 'channel' | 'payload' | 'expiresAt' | 'remindAt' | 'escalateAt' | 'required' | 'askedBalance'
>;

/**
 * When a record next needs a tick: a pending one at its expiry, its next reminder or its escalation,
 * whichever comes first (at once while it has no root: an orphan whose maker's flow failed); one
 * being run or not settled, at once.
 */
function dueMs(record: ApprovalRecord): number {
  if (record.state !== 'pending') return 0;
  if (!record.rootTs) return Date.parse(record.createdAt);
  return Math.min(...[record.expiresAt, record.remindAt, record.escalateAt].filter((at) => at !== undefined).map((at) => Date.parse(at)));
}

/** Ids read at most by one listing (a tick, a Home tab). */
const MAX_LISTED = 1_000;

/**
 * What a backend keeps for the approvals: each record (its payload sealed), and the ids with something
 * left to do (pending, approving, or ended with the root not yet showing it) in an index by the time
 * each next needs attention, so a tick reads exactly those that are due.
 */
export interface ApprovalsStorage {
  get(id: string): Promise<unknown>;
  /** The records of these ids in one round trip, in their order (undefined where there is none). */
  getMany(ids: string[]): Promise<unknown[]>;
  /**
   * Writes the record and its place in the index, together: listed at `due`, or not listed when
   * undefined. One step where the backend has transactions; else the record first (an index entry
   * that runs ahead of its record is read at once by a tick, which finds the record).
   */
  put(record: StoredApproval, due: number | undefined): Promise<void>;
  /** Stops listing an id (its record gone). */
  unlist(id: string): Promise<void>;
  /** The ids listed as due at `nowMs` or before, earliest first, at most `limit`. */
  due(nowMs: number, limit: number): Promise<string[]>;
  /** Every id listed, earliest due first, at most `limit`. */
  listed(limit: number): Promise<string[]>;
  /** How many ids are listed. */
  count(): Promise<number>;
  /** Every record, with its place in the index (undefined: not listed), in no particular order (what a copy of the store reads). */
  all(): AsyncGenerator<{ record: unknown; due: number | undefined }>;
}

/** Pending approvals and their outcome. */
export class ApprovalsRepo {
  constructor(
    private readonly storage: ApprovalsStorage,
    private readonly box: SecretBox,
  ) {}

  async create(input: NewApproval, now = new Date()): Promise<ApprovalRecord> {
    const at = now.toISOString();
    const record: ApprovalRecord = { ...input, action: input.payload.action, rootTs: '', state: 'pending', createdAt: at, updatedAt: at };
    await this.storage.put(this.seal(record), dueMs(record));
    return record;
  }

  async get(id: string): Promise<ApprovalRecord | undefined> {
    return this.read(await this.storage.get(id));
  }

  /** The records of these ids, in their order (undefined where there is none): one round trip to the store. */
  async getMany(ids: string[]): Promise<Array<ApprovalRecord | undefined>> {
    if (ids.length === 0) return [];
    return (await this.storage.getMany(ids)).map((raw) => this.read(raw));
  }

  /** A record as the storage answers it: checked and opened, or undefined where there is none. */
  private read(raw: unknown): ApprovalRecord | undefined {
    return raw === undefined || raw === null ? undefined : this.open(StoredApprovalSchema.parse(raw));
  }

  /** Ids of the approvals not settled yet (pending, approving, or ended but not shown), earliest due first. */
  async openIds(): Promise<string[]> {
    return this.storage.listed(MAX_LISTED);
  }

  /** How many approvals are not settled yet (the index's size: no record is read). */
  async openCount(): Promise<number> {
    return this.storage.count();
  }

  /** Ids of the approvals that need a tick now (an expiry, a reminder, a run to resume, a root to settle), earliest first. */
  async dueIds(now = Date.now()): Promise<string[]> {
    return this.storage.due(now, MAX_LISTED);
  }

  /**
   * Changes a record (under its claim) and keeps the index in step with its state. `known`: the
   * record as the claim's holder last wrote or read it, which spares reading it again.
   */
  async update(id: string, change: (r: ApprovalRecord) => ApprovalRecord, known?: ApprovalRecord): Promise<ApprovalRecord> {
    const current = known ?? (await this.get(id));
    if (!current) throw new NoSuchRecordError(`Approval ${id} does not exist`);
    const next = { ...change(current), updatedAt: new Date().toISOString() };
    await this.storage.put(this.seal(next), !OPEN_STATES.includes(next.state) && next.settled ? undefined : dueMs(next));
    return next;
  }

  /** Stops listing an id whose record is gone. */
  async forget(id: string): Promise<void> {
    await this.storage.unlist(id);
  }

  /** The record as stored: its payload sealed, and checked against the schema it is read back with (never written, then unreadable). */
  private seal(record: ApprovalRecord): StoredApproval {
    const { payload, intent, ...rest } = record;
    return StoredApprovalSchema.parse({
      ...rest,
      sealedPayload: this.box.seal(JSON.stringify(payload), key(record.id)),
      ...(intent
        ? {
            intent: {
              step: intent.step,
              at: intent.at,
              ...(intent.data === undefined ? {} : { sealedData: this.box.seal(JSON.stringify(intent.data), `${key(record.id)}:intent`) }),
            },
          }
        : {}),
    });
  }

  private open(stored: StoredApproval): ApprovalRecord {
    const { sealedPayload, intent, ...rest } = stored;
    const payload = ApprovalPayloadSchema.parse(JSON.parse(this.box.open(sealedPayload, key(stored.id))));
    return {
      ...rest,
      payload,
      ...(intent
        ? {
            intent: {
              step: intent.step,
              at: intent.at,
              ...(intent.sealedData ? { data: JSON.parse(this.box.open(intent.sealedData, `${key(stored.id)}:intent`)) as unknown } : {}),
            },
          }
        : {}),
    };
  }
}

/** The context each sealed value is bound to (as 0.1.0 sealed them: another, and nothing stored would open). */
const key = (id: string) => `approval:${id}`;
