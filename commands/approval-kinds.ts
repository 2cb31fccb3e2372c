import type { ApprovalKinds } from '../src/approvals/kinds';
import { accountCreateApproval } from './account-create';
import { rotateSecretApproval } from './applications';
import { limitRequestApproval } from './limit-request';
import { payApproval } from './pay-send';
import { keyAddApproval, keyDeleteApproval } from './pix-keys';
import { withdrawApproval } from './withdraw';
import { withdrawKeyApproval } from './withdraw-key';

/**
 * Each action that can wait for approval, with its write path (the same function the action runs
 * without approvals) and how it finishes after a crash. The approval buttons and the poller's tick
 * (given these by the composition root) run them.
 */
export const APPROVAL_KINDS: ApprovalKinds = {
  'limit-request': limitRequestApproval,
  'key-add': keyAddApproval,
  'key-delete': keyDeleteApproval,
  'withdraw-key': withdrawKeyApproval,
  'account-create': accountCreateApproval,
  'rotate-secret': rotateSecretApproval,
  pay: payApproval,
  withdraw: withdrawApproval,
};
