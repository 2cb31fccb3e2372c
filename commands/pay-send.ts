import type { ApprovalKind } from '../src/approvals/kinds';
import { messages } from '../src/i18n';

// Sending an approved payment (pix-money-out.md §1): filled in by the next commit. Until then an
// approved payment sends nothing and says so.
const notSent = (locale: Parameters<typeof messages>[0]) => ({
  ok: false as const,
  problem: messages(locale).common.wentWrongNothingMore(messages(locale).actions.runApprovedAction),
});

export const payApproval: ApprovalKind<'pay'> = {
  action: 'pay',
  execute: async (run) => notSent(run.locale),
  resume: async (run) => notSent(run.locale),
};
