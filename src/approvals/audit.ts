import type { AuditTarget } from '../audit/entry';
import type { Deps } from '../deps';
import type { ApprovalRecord } from '../store/approvals';

/** What an approval is about, for its audit entries (the trail masks the Pix key itself). */
export function auditTarget(record: ApprovalRecord): AuditTarget {
  const p = record.payload;
  return {
    approval: record.id,
    ...('accountId' in p ? { account: p.accountId } : {}),
    ...('pixKey' in p && p.pixKey ? { pixKey: p.pixKey } : {}),
    ...(p.action === 'rotate-secret' ? { application: p.clientId } : {}),
    // A payment: its account, the key paid (masked by the trail), and its correlationID (the approval's id).
    ...(p.action === 'pay' ? { account: p.sourceAccountId, pixKey: p.destinationAlias, payment: record.id } : {}),
  };
}

/** This delivery's audit entries are about this approval, asked by its maker (and decided by `checker`). */
export function auditAbout(deps: Deps, record: ApprovalRecord, checker?: string): void {
  deps.audit.about(auditTarget(record));
  deps.audit.approval({ maker: record.makerId, ...(checker ? { checker } : {}) });
}
