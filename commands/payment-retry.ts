import type { Actor } from '../src/approvals/who-may-decide';
import { APPROVAL_ROLE } from '../src/domain/approvals';
import type { EntryRow } from '../src/entry/table';
import { messages } from '../src/i18n';
import { retryPayment } from '../src/payments/retry-payment';
import { ApprovalIdSchema } from '../views/carried';
import { plain } from '../views/message';
import { PAYMENT_RETRY_ACTION_ID } from '../views/money-out-root';
import { APPROVAL_KINDS } from './approval-kinds';
import { buttonValue } from './confirm';

/** `payment_retry` on the root of a payment approved and not sent for want of balance: approves the same payment again, once. */
export const paymentRetryRow: EntryRow = {
  kind: 'action',
  id: PAYMENT_RETRY_ACTION_ID,
  role: APPROVAL_ROLE.pay,
  what: 'retryPayment',
  async handler(args, ctx) {
    const parsed = ApprovalIdSchema.safeParse(buttonValue(args.action));
    const actor: Actor = { userId: ctx.userId, role: ctx.role, locale: ctx.locale };
    const answer = parsed.success
      ? await retryPayment(ctx.deps, APPROVAL_KINDS, parsed.data, actor)
      : messages(ctx.locale).approvals.notFound;
    if (answer) await args.respond({ response_type: 'ephemeral', replace_original: false, ...ctx.present(plain(answer)) });
  },
};
