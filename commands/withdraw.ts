import type { ApprovalKind } from '../src/approvals/kinds';
import { messages } from '../src/i18n';

// `/pix withdraw` and its approved write (pix-money-out.md §3): filled in by a later commit. Until
// then an approved withdraw sends nothing and says so.
const notSent = (locale: Parameters<typeof messages>[0]) => ({
  ok: false as const,
  problem: messages(locale).common.wentWrongNothingMore(messages(locale).actions.runApprovedAction),
});

export const withdrawApproval: ApprovalKind<'withdraw'> = {
  action: 'withdraw',
  execute: async (run) => notSent(run.locale),
  resume: async (run) => notSent(run.locale),
};
