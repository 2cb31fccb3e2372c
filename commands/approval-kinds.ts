import type { ApprovalKinds } from '../src/approvals/engine';
import { accountCreateApproval } from './accounts';
import { limitRequestApproval } from './limit-request';
import { keyAddApproval, keyDeleteApproval } from './pix-keys';

/**
 * Each action that can wait for approval, with its write path (the same function the action runs
 * without approvals) and how it finishes after a crash. The approval buttons and the poller's tick
 * (given these by the composition root) run them.
 */
export const APPROVAL_KINDS: ApprovalKinds = {
  'limit-request': limitRequestApproval,
  'key-add': keyAddApproval,
  'key-delete': keyDeleteApproval,
  'account-create': accountCreateApproval,
};
