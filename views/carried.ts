import { z } from 'zod';
import { PixIdSchema } from '../src/pix/schemas';
import { CAMPAIGN_NAME_MAX } from './accounts';
import { AUDIT_MAX_DAYS } from './audit';

/**
 * What Slack carries for the app and hands back with a click or a submission: a button's `value` (at
 * most 2,000 characters, https://docs.slack.dev/reference/block-kit/block-elements/button-element) and
 * a modal's `private_metadata` (at most 3,000, https://docs.slack.dev/reference/views/modal-views).
 * Each is the JSON of one of these schemas, written with its type and read back with it
 * (`readCarried`); the longest the app writes fits its limit (test/unit/carried.test.ts).
 * The limit form's metadata, shortened to fit, is src/domain/limit-form.ts's `FormMeta`.
 */

export const BUTTON_VALUE_MAX = 2000;
export const PRIVATE_METADATA_MAX = 3000;

const ChannelIdSchema = z.string().regex(/^[A-Z0-9]{2,30}$/);
const PageSchema = z.number().int().min(1).max(1_000_000);

/** The carried JSON read back with its schema; undefined when it does not read as one. */
export function readCarried<T>(schema: z.ZodType<T>, raw: string | undefined): T | undefined {
  try {
    const parsed = schema.safeParse(JSON.parse(raw ?? ''));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Delete and Confirm of a Pix key (`/pix keys`, `/pix withdraw-key`): the account and the key. */
export const KeyRefSchema = z.object({
  accountId: PixIdSchema,
  // Never only dots: no key the API issues, and `.` or `..` in its URL would name another path.
  pixKey: z
    .string()
    .min(1)
    .max(100)
    .refine((k) => !/^\.+$/.test(k)),
});
export type KeyRef = z.infer<typeof KeyRefSchema>;

/** Previous and Next of `/pix keys`: the account and the page. */
export const KeysPageSchema = z.object({ accountId: PixIdSchema, page: PageSchema });
export type KeysPage = z.infer<typeof KeysPageSchema>;

/** Previous and Next of `/pix statement`: the page, and the account given to the command (else the main one). */
export const StatementPageSchema = z.object({ page: PageSchema, accountId: PixIdSchema.optional() });
export type StatementPage = z.infer<typeof StatementPageSchema>;

/** The Home tab's "Pix keys" of an account: the account, and whether it is the default one (PIX_APP_ID's). */
export const HomeKeysSchema = z.object({ accountId: PixIdSchema, isDefault: z.boolean() });
export type HomeKeys = z.infer<typeof HomeKeysSchema>;

/**
 * Previous and Next of `/pix audit`: the period (`days` from `since`, ms), the newest entry of the
 * first page (`top`, so that pages stay put while entries are added), the page number, and the entry
 * the page starts before (`before`: older than it) or after (`after`: newer than it).
 */
export const AuditPageRefSchema = z.object({
  days: z.number().int().min(1).max(AUDIT_MAX_DAYS),
  since: z.number().int().nonnegative(),
  top: z.string().max(40).optional(),
  page: PageSchema,
  before: z.string().max(40).optional(),
  after: z.string().max(40).optional(),
});
export type AuditPageRef = z.infer<typeof AuditPageRefSchema>;

/** A dispute root's "Send evidence": the dispute's end-to-end id, and its id at the service when known. */
export const EvidenceButtonSchema = z.object({ endToEndId: z.string().min(1).max(100), disputeId: PixIdSchema.optional() });
export type EvidenceButton = z.infer<typeof EvidenceButtonSchema>;

/**
 * The evidence button's value. An event's id that is no id the form takes is left out (the form then
 * asks for it), which also keeps the value within Slack's limit whatever the event carried.
 */
export function evidenceButton(endToEndId: string, disputeId: string | undefined): EvidenceButton {
  return { endToEndId, ...(disputeId && PixIdSchema.safeParse(disputeId).success ? { disputeId } : {}) };
}

/** The dispute-evidence form: where it was opened, and the dispute (absent: the form asks for it). */
export const EvidenceMetaSchema = z.object({ channelId: z.string().min(1), disputeId: PixIdSchema.optional() });
export type EvidenceMeta = z.infer<typeof EvidenceMetaSchema>;

/** The new-campaign-account form: the channel it was asked in (the announcement goes there). */
export const AccountCreateMetaSchema = z.object({ channelId: ChannelIdSchema });
export type AccountCreateMeta = z.infer<typeof AccountCreateMetaSchema>;

/** The link-an-AppID form: the channel it was asked in, and the account. */
export const AccountLinkMetaSchema = z.object({ channelId: ChannelIdSchema, accountId: PixIdSchema });
export type AccountLinkMeta = z.infer<typeof AccountLinkMetaSchema>;

/**
 * The retry of a campaign account's application: the account, the campaign's name, the channel, and
 * the channel message that announced the failure (`failureTs`, when it was posted).
 */
export const AppRetrySchema = z.object({
  accountId: PixIdSchema,
  name: z.string().min(1).max(CAMPAIGN_NAME_MAX),
  channelId: ChannelIdSchema,
  failureTs: z.string().max(40).optional(),
});
export type AppRetry = z.infer<typeof AppRetrySchema>;

/** The add-a-Pix-key form: the channel it was asked in, and the account. */
export const KeyAddMetaSchema = z.object({ channelId: ChannelIdSchema, accountId: PixIdSchema });
export type KeyAddMeta = z.infer<typeof KeyAddMetaSchema>;

/** An approval's id (16 hex digits): Approve's, Reject's and Cancel's value as it is. */
export const ApprovalIdSchema = z.string().regex(/^[0-9a-f]{16}$/);

/** The reject form: the approval. */
export const RejectMetaSchema = z.object({ approvalId: ApprovalIdSchema });
export type RejectMeta = z.infer<typeof RejectMetaSchema>;
