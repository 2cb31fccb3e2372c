import { ENTRY_TABLE } from '../../commands';
import type { Role } from '../../src/domain/roles';
import type { EntryRow } from '../../src/entry/table';
import type { Store } from '../../src/store';
import { type Harness, startHarness } from '../support/harness';
import { blockAction } from '../support/interactions';
import {
  blockSuggestion,
  messageShortcut,
  sendInteraction,
  submittedView,
  viewBlockAction,
  viewSubmission,
} from '../support/slack-payloads';
import { waitFor } from '../support/wait';

// The entry table, walked: for every row that needs a role, a user one role below is refused, and
// neither the Pix API nor the app's state sees anything of it; the audit trail records the refusal.

const USERS: Record<Role | 'none', string> = { none: 'U0NOBODY', viewer: 'U0VIEWER', operator: 'U0OPERATOR', admin: 'U0ADMIN' };
const BELOW: Record<Role, Role | 'none'> = { viewer: 'none', operator: 'viewer', admin: 'operator' };
const CHANNEL = 'C0FINANCE';
const ID = '6840aeca23c0d1fe48c856a3';

type GuardedRow = EntryRow & { role: Role };
const guarded = ENTRY_TABLE.filter((r): r is GuardedRow => r.role !== 'anyone');

/** Records every store method a handler calls (reads included), passing each call through. */
function watchStore(h: Harness): string[] {
  const seen: string[] = [];
  const watch = <T extends object>(target: T, name: string): T =>
    new Proxy(target, {
      get(t, prop) {
        const value = Reflect.get(t, prop, t) as unknown;
        const label = `${name}.${String(prop)}`;
        if (typeof value === 'function') {
          return (...args: unknown[]) => {
            seen.push(label);
            return (value as (...a: unknown[]) => unknown).apply(t, args);
          };
        }
        return value !== null && typeof value === 'object' ? watch(value, label) : value;
      },
    });
  (h.app.deps as { store: Store }).store = watch(h.app.deps.store, 'store');
  return seen;
}

describe('the entry table', () => {
  let h: Harness;
  let storeCalls: string[];
  let trail: Store['audit'];
  let n = 0;

  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: USERS.viewer, ACCESS_OPERATORS: USERS.operator, ACCESS_ADMINS: USERS.admin });
    // The test reads the trail past the watch: only the handlers' store calls are counted.
    trail = h.app.deps.store.audit;
    storeCalls = watchStore(h);
  });
  afterAll(() => h.close());

  test('has one row per kind and id, each with a role', () => {
    // A row without a role does not compile (tsc checks the tests before jest runs them).
    // @ts-expect-error: `role` is required
    const noRole: EntryRow = { kind: 'action', id: 'x', what: 'showHelp', handler: async () => undefined };
    void noRole;

    const keys = ENTRY_TABLE.map((r) => `${r.kind}:${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    for (const row of ENTRY_TABLE) expect(['viewer', 'operator', 'admin', 'anyone']).toContain(row.role);
    // Only help and the Home tab are open to anyone.
    expect(ENTRY_TABLE.filter((r) => r.role === 'anyone').map((r) => `${r.kind}:${r.id}`)).toEqual([
      'command:help',
      'event:app_home_opened',
    ]);
    expect(guarded.length).toBeGreaterThan(25);
  });

  /**
   * Sends what reaches this row, as `userId`; resolves the refusal's text as the user sees it (for
   * options, which have no place for words, the options offered).
   */
  async function reach(row: GuardedRow, userId: string): Promise<string | { options: unknown }> {
    const responseId = `table-${++n}`;
    switch (row.kind) {
      case 'command': {
        const args = Array.from({ length: row.minArgs }, () => ID);
        const { ack } = await h.slash(userId, [row.id, ...args].join(' '), { channelId: CHANNEL });
        return String(ack?.text ?? '');
      }
      case 'action': {
        await blockAction(h, { userId, actionId: row.id, value: JSON.stringify({ accountId: ID }), channelId: CHANNEL, responseId });
        const answer = await waitFor('the refusal', () => h.slack.responsesTo(responseId)[0]);
        return String(answer.body.text ?? '');
      }
      case 'view': {
        const view = submittedView(
          {
            callback_id: row.id,
            private_metadata: '{}',
            blocks: [
              {
                type: 'input',
                block_id: row.errorBlock,
                label: { type: 'plain_text', text: 'x' },
                element: { type: 'plain_text_input', action_id: 'x' },
              },
            ],
          },
          `V${n}`,
          {},
        );
        const { body } = await sendInteraction(h, viewSubmission(userId, view));
        expect(body).toMatchObject({ response_action: 'errors' });
        return String((body!.errors as Record<string, string>)[row.errorBlock] ?? '');
      }
      case 'shortcut': {
        await sendInteraction(h, messageShortcut(h, userId, { callbackId: row.id, channelId: CHANNEL, responseId }));
        const answer = await waitFor('the refusal', () => h.slack.responsesTo(responseId)[0]);
        return String(answer.body.text ?? '');
      }
      case 'options': {
        const { body } = await sendInteraction(h, blockSuggestion(userId, { actionId: row.id, value: '' }));
        return { options: body?.options };
      }
    }
  }

  test.each(guarded.map((row) => [`${row.kind} ${row.id}`, row] as const))(
    '%s: a user one role below is refused, nothing reaches the Pix API or the app’s state, and the refusal is recorded',
    async (_name, row) => {
      h.sandbox.calls.length = 0;
      storeCalls.length = 0;
      const below = BELOW[row.role];
      const [newest] = await trail.page({ since: new Date(0), limit: 1 });
      const refusal = await reach(row, USERS[below]);
      if (typeof refusal === 'string') expect(refusal.replace(/\*/g, '')).toContain(`You need the ${row.role} role`);
      else expect(refusal).toEqual({ options: [] });
      const action = row.kind === 'command' ? `/pix ${row.id}` : `${row.kind}:${row.id}`;
      const recorded = await waitFor('the refusal in the audit trail', async () => {
        const recent = await trail.page({ since: new Date(0), limit: 5 });
        const added = newest
          ? recent.slice(
              0,
              recent.findIndex((e) => e.id === newest.id),
            )
          : recent;
        return added.length > 0 ? added : undefined;
      });
      expect(recorded).toEqual([
        expect.objectContaining({ user: USERS[below], role: below, action, outcome: 'refused', detail: `needs ${row.role}` }),
      ]);
      expect(h.sandbox.calls).toEqual([]);
      expect(storeCalls).toEqual([]);
    },
  );

  test('an action in a modal, refused: the modal itself says so (a modal has no response_url)', async () => {
    const row = guarded.find((r): r is GuardedRow & { kind: 'action' } => r.kind === 'action' && r.role === 'admin')!;
    const modal = { id: 'V0REFUSED1', type: 'modal', blocks: [], hash: 'h0', private_metadata: '{}', callback_id: 'x' };
    h.sandbox.calls.length = 0;
    await sendInteraction(h, viewBlockAction(USERS.operator, modal, { type: 'button', action_id: row.id, block_id: 'b', value: '{}' }));
    const update = await waitFor('the refusal in the modal', () =>
      h.slack.callsOf('views.update').find((c) => c.args.view_id === modal.id),
    );
    const view = update.args.view as { title: { text: string } };
    expect(view.title.text).toBe('Not allowed');
    expect(JSON.stringify(view).replace(/\*/g, '')).toContain('You need the admin role');
    expect(h.sandbox.calls).toEqual([]);
  });
});
