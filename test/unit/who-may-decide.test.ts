import { delegationEndsAt, isActive, parseAway, refusalToDelegate, userOf } from '../../src/approvals/delegation';
import { escalateAtFor, escalationDue } from '../../src/approvals/escalation';
import { requiredApprovals } from '../../src/approvals/quorum';
import { type DecisionCase, mayApproveSomething, mayDecide, type Standing } from '../../src/approvals/who-may-decide';
import type { ApprovalAction, ApprovalPayload } from '../../src/domain/approvals';
import type { ApprovalRecord } from '../../src/store/approvals';

// The rule of who may decide an approval now, and how many approvals it needs, as tables: each row a
// case as the engine meets it, and what the rule answers.

const MAKER = 'U0MAKER';
const ME = 'U0ME';
const ABEL = 'U0ABEL';
const OTHER = 'U0OTHER';

const approver = (role: Standing['role'] = 'operator'): Standing => ({ role, approver: true, escalation: false });
const outsider = (role: Standing['role'] = 'operator'): Standing => ({ role, approver: false, escalation: false });
const manager = (role: Standing['role'] = 'operator'): Standing => ({ role, approver: false, escalation: true });
const at = '2026-03-05T12:00:00.000Z';

type Approval = DecisionCase['approval'];
const keyAdd: Approval = { action: 'key-add', makerId: MAKER };
const twoCheckers = (given: Approval['approvedBy'] = []): Approval => ({ ...keyAdd, required: 2, approvedBy: given });
const escalated = (a: Approval): Approval => ({ ...a, escalatedAt: at });

describe('who may decide an approval now, and whether one more approval completes it', () => {
  test.each<[string, Omit<DecisionCase, 'delegators'> & { delegators?: DecisionCase['delegators'] }, unknown]>([
    [
      'the maker, never',
      { approval: keyAdd, intent: 'approve', user: { id: MAKER, standing: approver('admin') } },
      { refusal: { kind: 'own' } },
    ],
    [
      'without the action’s role',
      { approval: { ...keyAdd, action: 'key-delete' }, intent: 'approve', user: { id: ME, standing: approver('operator') } },
      { refusal: { kind: 'role', role: 'admin', action: 'key-delete' } },
    ],
    [
      'an approver with the role: one approval does it',
      { approval: keyAdd, intent: 'approve', user: { id: ME, standing: approver() } },
      { completes: true },
    ],
    [
      'outside ACCESS_APPROVERS',
      { approval: keyAdd, intent: 'approve', user: { id: ME, standing: outsider() } },
      { refusal: { kind: 'not-approver', userId: ME } },
    ],
    [
      'on the escalation list, before the escalation',
      { approval: keyAdd, intent: 'approve', user: { id: ME, standing: manager() } },
      { refusal: { kind: 'not-approver', userId: ME } },
    ],
    [
      'on the escalation list, once escalated',
      { approval: escalated(keyAdd), intent: 'approve', user: { id: ME, standing: manager() } },
      { completes: true },
    ],
    [
      'on the escalation list, escalated, but without the role',
      { approval: escalated({ ...keyAdd, action: 'rotate-secret' }), intent: 'reject', user: { id: ME, standing: manager('operator') } },
      { refusal: { kind: 'role', role: 'admin', action: 'rotate-secret' } },
    ],
    [
      'two checkers, none yet: recorded, not complete',
      { approval: twoCheckers(), intent: 'approve', user: { id: ME, standing: approver() } },
      { completes: false },
    ],
    [
      'two checkers, another approved: complete',
      { approval: twoCheckers([{ userId: OTHER, at }]), intent: 'approve', user: { id: ME, standing: approver() } },
      { completes: true },
    ],
    [
      'two checkers, the same checker again',
      { approval: twoCheckers([{ userId: ME, at }]), intent: 'approve', user: { id: ME, standing: approver() } },
      { refusal: { kind: 'already-approved', given: 1, needed: 2 } },
    ],
    [
      'two checkers, approved for me by my delegate: not me again',
      { approval: twoCheckers([{ userId: OTHER, at, forUserId: ME }]), intent: 'approve', user: { id: ME, standing: approver() } },
      { refusal: { kind: 'already-approved', given: 1, needed: 2 } },
    ],
    [
      'a checker who approved may still reject: any reject ends it',
      { approval: twoCheckers([{ userId: ME, at }]), intent: 'reject', user: { id: ME, standing: approver() } },
      { completes: true },
    ],
    [
      'a delegate with the role, for an approver away',
      { approval: keyAdd, intent: 'approve', user: { id: ME, standing: outsider() }, delegators: [{ id: ABEL, standing: approver() }] },
      { completes: true, forUserId: ABEL },
    ],
    [
      'a delegate without the action’s role',
      {
        approval: { ...keyAdd, action: 'withdraw-key' },
        intent: 'approve',
        user: { id: ME, standing: outsider('operator') },
        delegators: [{ id: ABEL, standing: approver('admin') }],
      },
      { refusal: { kind: 'role', role: 'admin', action: 'withdraw-key' } },
    ],
    [
      'a delegate who is the maker: never their own action',
      { approval: keyAdd, intent: 'approve', user: { id: MAKER, standing: outsider() }, delegators: [{ id: ABEL, standing: approver() }] },
      { refusal: { kind: 'own' } },
    ],
    [
      'for an away person who is the maker: nothing lent',
      {
        approval: { ...keyAdd, makerId: ABEL },
        intent: 'approve',
        user: { id: ME, standing: outsider() },
        delegators: [{ id: ABEL, standing: approver() }],
      },
      { refusal: { kind: 'not-approver', userId: ME } },
    ],
    [
      'for an away person who could not decide it either',
      { approval: keyAdd, intent: 'approve', user: { id: ME, standing: outsider() }, delegators: [{ id: ABEL, standing: outsider() }] },
      { refusal: { kind: 'not-approver', userId: ME } },
    ],
    [
      'for an away person on the escalation list, once escalated',
      {
        approval: escalated(keyAdd),
        intent: 'reject',
        user: { id: ME, standing: outsider() },
        delegators: [{ id: ABEL, standing: manager() }],
      },
      { completes: true, forUserId: ABEL },
    ],
    [
      'two checkers: the away person already approved, another away person lends theirs',
      {
        approval: twoCheckers([{ userId: ABEL, at }]),
        intent: 'approve',
        user: { id: ME, standing: outsider() },
        delegators: [
          { id: ABEL, standing: approver() },
          { id: OTHER, standing: approver() },
        ],
      },
      { completes: true, forUserId: OTHER },
    ],
    [
      'two checkers: for the only away person, who already approved',
      {
        approval: twoCheckers([{ userId: ABEL, at }]),
        intent: 'approve',
        user: { id: ME, standing: outsider() },
        delegators: [{ id: ABEL, standing: approver() }],
      },
      { refusal: { kind: 'not-approver', userId: ME } },
    ],
    [
      'two checkers: the delegate approved on their own, then again for someone away',
      {
        approval: twoCheckers([{ userId: ME, at }]),
        intent: 'approve',
        user: { id: ME, standing: approver() },
        delegators: [{ id: ABEL, standing: approver() }],
      },
      { refusal: { kind: 'already-approved', given: 1, needed: 2 } },
    ],
    [
      'who may decide on their own decides for nobody',
      { approval: keyAdd, intent: 'approve', user: { id: ME, standing: approver() }, delegators: [{ id: ABEL, standing: approver() }] },
      { completes: true },
    ],
  ])('%s', (_name, c, expected) => {
    const decision = mayDecide({ delegators: [], ...c });
    expect(decision).toEqual(
      'refusal' in (expected as object) ? { may: false, ...(expected as object) } : { may: true, ...(expected as object) },
    );
  });
});

describe('how many checkers an action needs', () => {
  const limits = (day: number): ApprovalPayload => ({
    action: 'limit-request',
    accountId: 'a1',
    limits: { pixDayLimit: day, pixNightLimit: 100 },
    current: {},
    files: [{ id: 'F1', name: 'p.pdf' }],
  });
  const key: ApprovalPayload = { action: 'key-add', accountId: 'a1', pixKey: 'k@example.com', type: 'EMAIL' };
  const settings = (quorumActions: ApprovalAction[] = [], quorumAboveCents?: number) => ({
    quorumActions: new Set(quorumActions),
    ...(quorumAboveCents === undefined ? {} : { quorumAboveCents }),
  });
  test.each<[string, ApprovalPayload, ReturnType<typeof settings>, 1 | 2]>([
    ['off: one', limits(10_000_000), settings(), 1],
    ['a limit request with a field above the amount: two', limits(5_000_001), settings([], 5_000_000), 2],
    ['at the amount: one', limits(5_000_000), settings([], 5_000_000), 1],
    ['an action named in APPROVAL_QUORUM_ACTIONS: two', key, settings(['key-add']), 2],
    ['the amount is for limit requests only', key, settings([], 0), 1],
    ['a limit request named in APPROVAL_QUORUM_ACTIONS, below the amount: two', limits(1), settings(['limit-request'], 5_000_000), 2],
  ])('%s', (_name, payload, s, n) => {
    expect(requiredApprovals(payload, s)).toBe(n);
  });
});

describe('escalation: when it is due', () => {
  const record = (over: Partial<ApprovalRecord>): ApprovalRecord =>
    ({ state: 'pending', rootTs: '1.2', escalateAt: '2026-03-05T12:00:00.000Z', ...over }) as ApprovalRecord;
  const noon = Date.parse('2026-03-05T12:00:00.000Z');
  test.each<[string, Partial<ApprovalRecord>, number, boolean]>([
    ['its time come', {}, noon, true],
    ['not yet', {}, noon - 1, false],
    ['already escalated', { escalatedAt: '2026-03-05T12:00:01.000Z' }, noon + 5_000, false],
    ['decided meanwhile', { state: 'approving' }, noon + 5_000, false],
    ['its root never recorded', { rootTs: '' }, noon + 5_000, false],
    ['off', { escalateAt: undefined }, noon + 5_000, false],
  ])('%s', (_name, over, now, due) => {
    expect(escalationDue(record(over), now)).toBe(due);
  });
  test('asked at a time, escalated that long after; off when unset', () => {
    expect(escalateAtFor(new Date('2026-03-05T10:00:00.000Z'), 7_200_000)).toBe('2026-03-05T12:00:00.000Z');
    expect(escalateAtFor(new Date(), undefined)).toBeUndefined();
  });
});

describe('delegation while away', () => {
  // 14:00 in São Paulo (UTC-3) on 2026-03-05.
  const now = new Date('2026-03-05T17:00:00.000Z');
  const base = { userId: ABEL, delegate: ME, now, mayApproveSomething: true, delegateRole: 'operator', mayWait: ['key-add'] } as const;
  const day = (text: string) => {
    const [year, month, d] = text.split('-').map(Number);
    return { year: year!, month: month!, day: d! };
  };

  test.each<[string, Partial<Parameters<typeof refusalToDelegate>[0]>, unknown]>([
    ['today: until the end of it', { until: day('2026-03-05') }, undefined],
    ['90 days ahead', { until: day('2026-06-03') }, undefined],
    ['91 days ahead', { until: day('2026-06-04') }, { kind: 'too-far', last: '2026-06-03' }],
    ['yesterday', { until: day('2026-03-04') }, { kind: 'past' }],
    ['oneself', { until: day('2026-03-06'), delegate: ABEL }, { kind: 'self' }],
    [
      'a delegate who is away',
      { until: day('2026-03-06'), delegateAway: { delegate: OTHER, until: '2026-03-10', setAt: at } },
      { kind: 'delegate-away', delegate: ME, until: '2026-03-10' },
    ],
    [
      'a delegate whose delegation ended',
      { until: day('2026-03-06'), delegateAway: { delegate: OTHER, until: '2026-03-04', setAt: at } },
      undefined,
    ],
    ['who approves nothing', { until: day('2026-03-06'), mayApproveSomething: false }, { kind: 'approves-nothing' }],
    // A delegate holds a role that decides one of the actions that may wait, whichever: the away person's place among the approvers is lent, never a role.
    ['a delegate with no role', { delegateRole: undefined }, { kind: 'delegate-decides-nothing', delegate: ME, role: 'operator' }],
    ['a viewer as delegate', { delegateRole: 'viewer' }, { kind: 'delegate-decides-nothing', delegate: ME, role: 'operator' }],
    [
      'an operator, when only admins decide what may wait',
      { mayWait: ['key-delete', 'rotate-secret'] },
      { kind: 'delegate-decides-nothing', delegate: ME, role: 'admin' },
    ],
    ['an operator, when one action of several needs no more', { mayWait: ['key-delete', 'limit-request'] }, undefined],
    ['an admin', { delegateRole: 'admin', mayWait: ['key-delete'] }, undefined],
  ])('%s', (_name, over, refusal) => {
    expect(refusalToDelegate({ ...base, until: day('2026-03-06'), ...over })).toEqual(refusal);
  });

  test('it holds until its last day ends in São Paulo (03:00 UTC the next day), then lapses', () => {
    expect(delegationEndsAt('2026-03-05').toISOString()).toBe('2026-03-06T03:00:00.000Z');
    const d = { delegate: ME, until: '2026-03-05', setAt: at };
    expect(isActive(d, new Date('2026-03-06T02:59:59.999Z'))).toBe(true);
    expect(isActive(d, new Date('2026-03-06T03:00:00.000Z'))).toBe(false);
  });

  test('the delegate as Slack sends an escaped mention, or a user ID; the two words in either order', () => {
    expect(userOf('<@U0BRUNO|bruno>')).toBe('U0BRUNO');
    expect(userOf('<@W0BRUNO>')).toBe('W0BRUNO');
    expect(userOf('U0BRUNO')).toBe('U0BRUNO');
    expect(userOf('@bruno')).toBeUndefined();
    expect(userOf('<#C0CHANNEL|finance>')).toBeUndefined();
    expect(parseAway(['2026-03-06', '<@U0BRUNO|bruno>'])).toEqual({ until: day('2026-03-06'), delegate: 'U0BRUNO' });
    expect(parseAway(['U0BRUNO', '2026-03-06'])).toEqual({ until: day('2026-03-06'), delegate: 'U0BRUNO' });
    expect(parseAway(['2026-02-30', 'U0BRUNO'])).toEqual({ problem: 'date' });
    expect(parseAway(['2026-03-06', '@bruno'])).toEqual({ problem: 'user' });
  });

  test('who may approve something has something to delegate', () => {
    expect(mayApproveSomething(approver('operator'), ['key-add'])).toBe(true);
    expect(mayApproveSomething(approver('operator'), ['key-delete'])).toBe(false);
    expect(mayApproveSomething(manager('admin'), ['rotate-secret'])).toBe(true);
    expect(mayApproveSomething(outsider('admin'), ['key-add'])).toBe(false);
    expect(mayApproveSomething(approver('admin'), [])).toBe(false);
  });
});
