import pLimit from 'p-limit';
import type { Deps } from '../deps';
import { describeError } from '../errors';
import { tickReads } from './calling';
import { holding, write } from './claim';
import { endPending, isPastExpiry } from './deciding';
import { escalate } from './escalate';
import { escalationDue } from './escalation';
import { type ApprovalKinds, kindOf } from './kinds';
import { cancelOrphan, MAX_REMINDERS, remind } from './reminders';
import { resumeApproved, settle } from './running';

/**
 * The poller's part, on its schedule (one instance per tick on a shared store), for the approvals
 * that are due (the store's index: nothing else is read): expires pending approvals past `APPROVAL_TTL`,
 * escalates those waiting past `APPROVAL_ESCALATE_AFTER`, posts their reminders, resumes those an
 * instance left in `approving` (their claim lapsed with it), settles ended ones whose root could not
 * be updated, and cancels those whose root was never recorded. Every one under its claim, so two
 * instances never both act. Does nothing when `APPROVALS` is empty. Never rejects for one approval's
 * failure.
 */
export async function runApprovalTick(
  deps: Deps,
  kinds: ApprovalKinds,
  options: { stopping: () => boolean },
): Promise<{ expired: number; escalated: number; reminded: number; resumed: number; settled: number; orphans: number }> {
  const report = { expired: 0, escalated: 0, reminded: 0, resumed: 0, settled: 0, orphans: 0 };
  if (deps.approvals.actions.size === 0) return report;
  deps.metrics.approvalsPending(await deps.store.approvals.openCount());
  const ids = await deps.store.approvals.dueIds();
  const reads = tickReads(deps, new Date());
  const limit = pLimit(4);
  await Promise.all(
    ids.map((id) =>
      limit(async () => {
        if (options.stopping()) return;
        try {
          await holding(deps, id, async (held) => {
            const fresh = await deps.store.approvals.get(id);
            if (!fresh) return void (await deps.store.approvals.forget(id));
            const now = Date.now();
            if (fresh.state === 'pending' && !fresh.rootTs) {
              await cancelOrphan(deps, held, fresh);
              report.orphans++;
            } else if (fresh.state === 'pending' && isPastExpiry(fresh, now)) {
              await endPending(deps, kinds, held, fresh, { state: 'expired' });
              deps.logger.info({ approval: id, action: fresh.action }, 'approval expired');
              report.expired++;
            } else if (fresh.state === 'pending' && fresh.escalateAt && Date.parse(fresh.escalateAt) <= now) {
              if (escalationDue(fresh, now) && deps.access.escalationIds.length > 0) {
                await escalate(deps, held, fresh, reads);
                report.escalated++;
              } else {
                // Escalation turned off since it was asked (or posted already): not due any more.
                await write(deps, held, id, ({ escalateAt: _off, escalating: _posting, ...rest }) => rest);
              }
            } else if (fresh.state === 'pending' && fresh.remindAt && Date.parse(fresh.remindAt) <= now) {
              if (deps.approvals.remindAfterMs > 0 && (fresh.reminders ?? 0) < MAX_REMINDERS) {
                await remind(deps, held, fresh, reads);
                report.reminded++;
              } else {
                // Reminders turned off since it was asked, or all posted: only its expiry is left.
                await write(deps, held, id, ({ remindAt: _off, ...rest }) => rest);
              }
            } else if (fresh.state === 'approving') {
              deps.logger.info({ approval: id, action: fresh.action, intent: fresh.intent?.step ?? 'none' }, 'resuming an approved action');
              await resumeApproved(deps, kinds, fresh, held);
              report.resumed++;
            } else if (fresh.state !== 'pending' && !fresh.settled) {
              await settle(deps, fresh, kindOf(kinds, fresh.action), held);
              report.settled++;
            } else {
              // Listed as due too early (a clock step): listed again at its own time.
              await write(deps, held, id, (r) => r);
            }
          });
        } catch (err) {
          deps.logger.warn({ approval: id, ...describeError(err) }, 'approval tick failed for one approval; a later tick retries');
        }
      }),
    ),
  );
  if (Object.values(report).some((n) => n > 0)) deps.logger.info({ approvals: report }, 'approval tick');
  return report;
}
