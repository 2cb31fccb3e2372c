import { AccessControl } from '../../src/access';

const lists = (l: Partial<Record<'viewer' | 'operator' | 'admin', string[]>>) => ({ viewer: [], operator: [], admin: [], ...l });

describe('AccessControl', () => {
  test('the highest role wins across direct lists and groups', async () => {
    const access = new AccessControl({
      lists: lists({ viewer: ['U1'], admin: ['S0ADMINS'] }),
      sandboxMode: false,
      groupMembers: async () => ['U1'],
    });
    expect(await access.roleOf('U1')).toBe('admin');
  });

  test('a direct listing needs no group look-up below it', async () => {
    const asked: string[] = [];
    const access = new AccessControl({
      lists: lists({ admin: ['U1'], viewer: ['S0VIEWERS'] }),
      sandboxMode: false,
      groupMembers: async (id) => {
        asked.push(id);
        return [];
      },
    });
    expect(await access.roleOf('U1')).toBe('admin');
    expect(asked).toEqual([]);
  });

  test('a Slack that does not answer holds the check no longer than groupWaitMs', async () => {
    const access = new AccessControl({
      lists: lists({ operator: ['S0OPS'] }),
      sandboxMode: false,
      groupWaitMs: 50,
      groupMembers: () => new Promise(() => undefined),
    });
    const started = Date.now();
    expect(await access.roleOf('U1')).toBeUndefined();
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  test('when Slack fails or is slow, the last answer it gave stands', async () => {
    let now = 0;
    let answer: () => Promise<string[]> = async () => ['U1'];
    const errors: string[] = [];
    const access = new AccessControl({
      lists: lists({ operator: ['S0OPS'] }),
      sandboxMode: false,
      groupTtlMs: 1_000,
      groupWaitMs: 50,
      now: () => now,
      groupMembers: () => answer(),
      onGroupError: (id) => errors.push(id),
    });
    expect(await access.roleOf('U1')).toBe('operator');
    now = 5_000; // stale: Slack is asked again, and fails
    answer = async () => {
      throw new Error('ratelimited');
    };
    expect(await access.roleOf('U1')).toBe('operator');
    expect(errors).toEqual(['S0OPS']);
    now = 10_000; // stale again: Slack hangs
    answer = () => new Promise(() => undefined);
    expect(await access.roleOf('U1')).toBe('operator');
  });

  test('one look-up at a time per group, however many checks wait on it', async () => {
    let calls = 0;
    let release!: (ids: string[]) => void;
    const access = new AccessControl({
      lists: lists({ viewer: ['S0V'] }),
      sandboxMode: false,
      groupMembers: () => {
        calls++;
        return new Promise((resolve) => (release = resolve));
      },
    });
    const checks = [access.roleOf('U1'), access.roleOf('U2'), access.roleOf('U1')];
    release(['U1']);
    expect(await Promise.all(checks)).toEqual(['viewer', undefined, 'viewer']);
    expect(calls).toBe(1);
  });
});
