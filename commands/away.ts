import { type DelegationRefusal, parseAway, refusalToDelegate } from '../src/approvals/delegation';
import { delegationsIn } from '../src/approvals/delegations-repo';
import { mayApproveSomething, type Standing, standingOf } from '../src/approvals/who-may-decide';
import type { Role } from '../src/domain/roles';
import { formatSaoPauloDateTime, isoDateOf, systemClock } from '../src/domain/sao-paulo-date';
import type { CommandContext, CommandRow, EntryRow } from '../src/entry/table';
import { UsageError } from '../src/entry/table';
import { describeError } from '../src/errors';
import { type Locale, messages } from '../src/i18n';
import { plain, type SlackMessage } from '../views/message';

// `/pix away`: delegation while away. The rows need the viewer role, as the contract's command table
// says, and the entry table checks it like any other; setting a delegation also needs what no role
// says, that the caller may approve something (an action that may wait whose role they hold, as an
// approver or on the escalation list) and that the delegate holds a role that decides one: the approval
// rules answer that (who-may-decide.ts, delegation.ts), here, as they answer who may decide in the
// approval buttons' handlers. Seeing one's state and ending one's delegation stay open to every viewer:
// whoever set one can always end it.

const day = (locale: Locale, until: string) => formatSaoPauloDateTime(until, locale) ?? until;

/** A refusal in the caller's words, and its word for the audit trail. */
function refusalOf(locale: Locale, refusal: DelegationRefusal): { text: string; detail: string } {
  const m = messages(locale).away;
  switch (refusal.kind) {
    case 'approves-nothing':
      return { text: m.refusedApprovesNothing, detail: 'delegation refused: approves nothing' };
    case 'self':
      return { text: m.refusedSelf, detail: 'delegation refused: oneself' };
    case 'past':
      return { text: m.refusedPast, detail: 'delegation refused: a past day' };
    case 'too-far':
      return { text: m.refusedTooFar(day(locale, refusal.last)), detail: 'delegation refused: more than 90 days ahead' };
    case 'delegate-decides-nothing':
      return {
        text: m.refusedDelegateDecidesNothing({
          delegate: `<@${refusal.delegate}>`,
          ...(refusal.role ? { role: messages(locale).common.role(refusal.role) } : {}),
        }),
        detail: 'delegation refused: the delegate decides nothing',
      };
    case 'delegate-away':
      return {
        text: m.refusedDelegateAway({ delegate: `<@${refusal.delegate}>`, until: day(locale, refusal.until) }),
        detail: 'delegation refused: the delegate is away',
      };
  }
}

/** The caller's state: who decides for them, and for whom they decide. */
async function state(ctx: CommandContext): Promise<SlackMessage> {
  const { deps, userId, locale } = ctx;
  const m = messages(locale).away;
  const now = systemClock();
  const delegations = delegationsIn(deps.store);
  const [own, lent] = await Promise.all([delegations.of(userId, now), delegations.forDelegate(userId, now)]);
  const lines = [own ? m.away({ delegate: `<@${own.delegate}>`, until: day(locale, own.until) }) : m.notAway];
  if (lent.length > 0)
    lines.push(
      m.decidingFor(
        messages(locale).approvals.and(lent.map((d) => m.awayUntil({ away: `<@${d.awayUserId}>`, until: day(locale, d.until) }))),
      ),
    );
  return plain(lines.join('\n'));
}

/** Sets the caller's delegation, or tells them why not. */
async function setAway(ctx: CommandContext): Promise<SlackMessage> {
  const { deps, userId, locale, args } = ctx;
  const m = messages(locale).away;
  const parsed = parseAway(args);
  if ('problem' in parsed) throw new UsageError(parsed.problem === 'user' ? m.notUser : m.usage);
  const { until, delegate } = parsed;
  const now = systemClock();
  const delegations = delegationsIn(deps.store);
  deps.audit.about({ delegate, period: `..${isoDateOf(until)}` });
  // The actions that may wait for a checker: what the caller could hand over, and what the delegate must be able to decide.
  const mayWait = deps.approvals.actions;
  const delegateAway = await delegations.of(delegate, now);
  let standing: Standing;
  let delegateRole: Role | undefined;
  try {
    // Both looked up afresh, as when an approval is decided: a group changed a moment ago counts.
    [standing, delegateRole] = await Promise.all([standingOf(deps, userId), deps.access.roleOf(delegate, { fresh: true })]);
  } catch (err) {
    deps.logger.warn({ user: userId, ...describeError(err) }, 'could not look up afresh who may decide, for a delegation');
    deps.audit.outcome('error', 'roles not looked up');
    return plain(m.lookupFailed);
  }
  const refusal = refusalToDelegate({
    userId,
    delegate,
    until,
    now,
    mayApproveSomething: mayApproveSomething(standing, mayWait),
    delegateRole,
    mayWait,
    ...(delegateAway ? { delegateAway } : {}),
  });
  if (refusal) {
    const { text, detail } = refusalOf(locale, refusal);
    deps.audit.outcome('refused', detail);
    return plain(text);
  }
  await delegations.set(userId, { delegate, until: isoDateOf(until), setAt: now.toISOString() }, now);
  deps.logger.info({ user: userId, delegate, until: isoDateOf(until) }, 'delegation set');
  deps.audit.outcome('ok', 'delegation set');
  return plain(m.set({ delegate: `<@${delegate}>`, until: day(locale, isoDateOf(until)) }));
}

const awayCommand: CommandRow = {
  kind: 'command',
  id: 'away',
  argsUsage: '[<YYYY-MM-DD> <@user>]',
  summary: 'away',
  what: 'manageAway',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 2,
  async handler(ctx) {
    if (ctx.args.length === 0) return state(ctx);
    if (ctx.args.length !== 2) throw new UsageError(messages(ctx.locale).away.usage);
    return setAway(ctx);
  },
};

const awayOffCommand: CommandRow = {
  kind: 'command',
  id: 'away off',
  argsUsage: '',
  summary: 'awayOff',
  what: 'manageAway',
  role: 'viewer',
  minArgs: 0,
  maxArgs: 0,
  async handler({ deps, userId, locale }) {
    const m = messages(locale).away;
    const ended = await delegationsIn(deps.store).end(userId, systemClock());
    if (!ended) return plain(m.nothingToEnd);
    deps.audit.about({ delegate: ended.delegate });
    deps.audit.outcome('ok', 'delegation ended');
    deps.logger.info({ user: userId, delegate: ended.delegate }, 'delegation ended');
    return plain(m.ended(`<@${ended.delegate}>`));
  },
};

export const awayRows: EntryRow[] = [awayCommand, awayOffCommand];
