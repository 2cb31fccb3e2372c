import type { ActionArgs, EntryContext, EntryRow } from '../src/entry/table';
import { EvidenceButtonSchema, readCarried } from '../views/carried';
import { evidenceModal } from '../views/dispute-evidence';
import { DISPUTE_EVIDENCE_ACTION } from '../views/pix-events';
import { buttonValue } from './confirm';
import { PixIdSchema } from './parse';

/**
 * A dispute root's "Send evidence" (operator): the dispute-evidence form, its id filled in when the
 * dispute's events said it (the button's, or the dispute's record when a later event brought it);
 * otherwise the form asks for it.
 */
async function openEvidenceFromRoot(args: ActionArgs, ctx: EntryContext): Promise<void> {
  const { deps, locale } = ctx;
  const value = readCarried(EvidenceButtonSchema, buttonValue(args.action));
  let disputeId = value?.disputeId;
  if (!disputeId && value) disputeId = (await deps.store.pixEvents.dispute(value.endToEndId).catch(() => undefined))?.id;
  const known = disputeId && PixIdSchema.safeParse(disputeId).success ? disputeId : undefined;
  const channelId = args.body.channel?.id ?? ctx.userId;
  await deps.slack.retried.views.open({
    trigger_id: args.body.trigger_id,
    view: evidenceModal(locale, { channelId, ...(known ? { disputeId: known } : {}) }, deps.sandboxMode),
  });
}

export const pixEventRows: EntryRow[] = [
  { kind: 'action', id: DISPUTE_EVIDENCE_ACTION, role: 'operator', what: 'openEvidenceForm', handler: openEvidenceFromRoot },
];
