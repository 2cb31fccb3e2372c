import type { ActionArgs, EntryContext, EntryRow } from '../src/entry/table';
import { readCarried } from '../views/carried';
import { PAYMENT_LIMIT_REQUEST_ACTION, PaymentLimitButtonSchema } from '../views/payment-end';
import { buttonValue } from './confirm';
import { openForm } from './limit-request';

/**
 * A `REACH_TRANSFER_LIMIT` failure's button (operator, like `/pix limit request`): the limit-request
 * form, opened for the account the payment was sent from (any account when the button's value does
 * not read as one).
 */
async function openLimitFormForPayment(args: ActionArgs, ctx: EntryContext): Promise<void> {
  const carried = readCarried(PaymentLimitButtonSchema, buttonValue(args.action));
  await openForm(ctx.deps, ctx.locale, {
    triggerId: args.body.trigger_id,
    channelId: args.body.channel?.id ?? ctx.userId,
    ...(carried ? { accountId: carried.accountId } : {}),
    attached: [],
  });
}

export const paymentEndRows: EntryRow[] = [
  { kind: 'action', id: PAYMENT_LIMIT_REQUEST_ACTION, role: 'operator', what: 'openLimitRequestForm', handler: openLimitFormForPayment },
];
