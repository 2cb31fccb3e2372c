import type { ApprovalKind } from '../src/approvals/kinds';
import { moneyOutDoneRoot, releaseNotRun, reserveAtApproval } from '../src/payments/money-out';
import { resumePayment, sendPayment } from '../src/payments/send-payment';

/**
 * A payment to a Pix key, once approved (`/pix pay` asks it): the day's limit reserved at the approval
 * that sends it, then created and approved at the service once (src/payments/send-payment.ts); its root
 * then shows where the money stands.
 */
export const payApproval: ApprovalKind<'pay'> = {
  action: 'pay',
  beforeRun: reserveAtApproval,
  notRun: releaseNotRun,
  execute: sendPayment,
  resume: resumePayment,
  doneRoot: moneyOutDoneRoot,
};
