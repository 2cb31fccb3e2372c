import type { CommandRow, EntryRow } from '../src/entry/table';
import { accountCreateRows } from './account-create';
import { accountLinkRows } from './account-link';
import { accountListRows } from './account-list';
import { accountRetryRows } from './account-retry';
import { applicationRows } from './applications';
import { approvalRows } from './approvals';
import { auditRows } from './audit';
import { awayRows } from './away';
import { digestCommand } from './digest';
import { disputeEvidenceRows } from './dispute-evidence';
import { helpCommand } from './help';
import { homeRows } from './home';
import { limitListRows } from './limit-list';
import { limitRequestRows } from './limit-request';
import { accountOptionsRow } from './limit-request-accounts';
import { limitStatusRows } from './limit-status';
import { limitsCommand } from './limits';
import { payRows } from './pay';
import { paymentBookRows } from './payment-book';
import { paymentEndRows } from './payment-end';
import { paymentRetryRow } from './payment-retry';
import { paymentsRows } from './payments';
import { pixEventRows } from './pix-events';
import { pixKeyRows } from './pix-keys';
import { statementRows } from './statement';
import { withdrawRows } from './withdraw';

/**
 * Every entry point of the app — each `/pix` subcommand, button, modal submission, shortcut and the
 * Home event — with the role it needs. The router (src/entry/router.ts) checks it before any handler
 * runs; `/pix help` lists the subcommands in this order.
 */
export const ENTRY_TABLE: EntryRow[] = [
  helpCommand(() => ENTRY_TABLE.filter((r): r is CommandRow => r.kind === 'command')),
  limitsCommand,
  ...limitRequestRows,
  accountOptionsRow,
  ...limitStatusRows,
  ...limitListRows,
  ...accountListRows,
  ...accountCreateRows,
  ...accountLinkRows,
  ...accountRetryRows,
  ...pixKeyRows,
  ...withdrawRows,
  ...applicationRows,
  ...paymentBookRows,
  ...disputeEvidenceRows,
  ...pixEventRows,
  ...paymentEndRows,
  ...statementRows,
  ...payRows,
  ...paymentsRows,
  ...auditRows(),
  ...awayRows,
  digestCommand,
  ...homeRows,
  ...approvalRows,
  paymentRetryRow,
];

export { APPROVAL_KINDS } from './approval-kinds';
