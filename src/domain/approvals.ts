import { z } from 'zod';
import { PayPayloadSchema, WithdrawPayloadSchema } from './money-out';
import { ROLES_HIGH_FIRST, type Role } from './roles';

/** The actions that can wait for a second person (`APPROVALS`), in the contract's words. */
export const APPROVAL_ACTIONS = [
  'limit-request',
  'key-add',
  'key-delete',
  'withdraw-key',
  'account-create',
  'rotate-secret',
  'pay',
  'withdraw',
] as const;
export type ApprovalAction = (typeof APPROVAL_ACTIONS)[number];

/** The role each action needs: of its maker (the command's row) and of whoever approves it. */
export const APPROVAL_ROLE: Record<ApprovalAction, Role> = {
  'limit-request': 'operator',
  'key-add': 'operator',
  'key-delete': 'admin',
  'withdraw-key': 'admin',
  'account-create': 'admin',
  'rotate-secret': 'admin',
  pay: 'operator',
  withdraw: 'operator',
};

/** The longest an approval's claim lives between renewals (POLL_CLAIM_TTL_MS, capped): a dead holder's work is resumed soon after. */
export const APPROVAL_CLAIM_MAX_MS = 30_000;

/** Money out: always waits for a checker, whatever APPROVALS lists. */
export const ALWAYS_APPROVED: ReadonlySet<ApprovalAction> = new Set(['pay', 'withdraw']);

/** The lowest role that decides one of these actions; undefined when there is none. */
export function roleToDecideAny(actions: Iterable<ApprovalAction>): Role | undefined {
  const needed = new Set([...actions].map((action) => APPROVAL_ROLE[action]));
  return [...ROLES_HIGH_FIRST].reverse().find((role) => needed.has(role));
}

/** The lowest role any approval needs: the role of the approval buttons' rows (each action then checks its own). */
export const APPROVAL_ROW_ROLE: Role = 'operator';

const PixId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const Cents = z.record(z.string(), z.number().int().nonnegative());

/**
 * What an action will send, once approved: everything its write path needs, and nothing that can be
 * read again then (AppIDs are looked up at approval time). Serializable, and sealed in the store.
 */
export const ApprovalPayloadSchema = z.discriminatedUnion('action', [
  z.object({ action: z.literal('key-add'), accountId: PixId, pixKey: z.string().max(100), type: z.string().min(1).max(10) }),
  z.object({ action: z.literal('key-delete'), accountId: PixId, pixKey: z.string().min(1).max(100) }),
  z.object({ action: z.literal('withdraw-key'), accountId: PixId, pixKey: z.string().min(1).max(100) }),
  z.object({ action: z.literal('account-create'), name: z.string().min(1).max(80) }),
  z.object({ action: z.literal('rotate-secret'), clientId: z.string().min(1).max(200) }),
  PayPayloadSchema,
  WithdrawPayloadSchema,
  z.object({
    action: z.literal('limit-request'),
    accountId: PixId,
    /** The requested limits, in cents, by field. */
    limits: Cents,
    /** The limits when the form was read, in cents, by field. */
    current: Cents,
    /** The proofs as shared in Slack: fetched again (and checked again) at approval time. */
    files: z
      .array(z.object({ id: z.string().min(1).max(40), name: z.string().max(255) }))
      .min(1)
      .max(10),
    description: z.string().max(3000).optional(),
    limitRequestReason: z.string().max(3000).optional(),
  }),
]);
export type ApprovalPayload = z.infer<typeof ApprovalPayloadSchema>;
export type PayloadOf<A extends ApprovalAction> = Extract<ApprovalPayload, { action: A }>;

/** One approval given: by whom, when, and for which away approver when a delegate gave it. */
export const ApprovalGivenSchema = z.object({ userId: z.string(), at: z.string(), forUserId: z.string().optional() });
export type ApprovalGiven = z.infer<typeof ApprovalGivenSchema>;

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `30m`, `24h`, `2d` (and `45s`) in milliseconds; undefined when it is not such a duration. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d{1,6})\s*([smhd])\s*$/.exec(text);
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms > 0 ? ms : undefined;
}
