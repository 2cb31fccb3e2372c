import { limitFieldLabel } from '../../src/domain/limit-fields';
import { formatCents } from '../../src/domain/money';
import { slackSignatureHeaders } from '../../src/slack-standin/signing';
import { type Harness, messageText, startHarness } from '../support/harness';
import { waitFor } from '../support/wait';

const VIEWER = 'U0VIEWER1';
const OPERATOR = 'U0OPER001';
const STRANGER = 'U0NOBODY1';
const GROUP_MEMBER = 'U0GROUPED';

describe('/pix help and /pix limits, through the real app (HTTP mode)', () => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ ACCESS_VIEWERS: `${VIEWER},S0FINANCE`, ACCESS_OPERATORS: OPERATOR });
    h.slack.userGroups.set('S0FINANCE', [GROUP_MEMBER]);
  });
  afterAll(() => h.close());

  const apiCallsSince = (n: number) => h.sandbox.calls.slice(n);

  test('/pix limits answers with the default account limits in R$, read with the main AppID', async () => {
    const before = h.sandbox.calls.length;
    const res = await h.slash(VIEWER, 'limits');
    expect(res.status).toBe(200);
    const [answer] = await waitFor('the answer on the response_url', () => {
      const r = h.slack.responsesTo(res.responseId);
      return r.length ? r : undefined;
    });
    expect(answer!.body.response_type).toBe('ephemeral');
    const text = messageText(answer!.body);

    const calls = apiCallsSince(before);
    const main = h.sandbox.companies.main;
    const limitsRes = await fetch(`${h.sandbox.url}/api/v1/limits/${main.defaultAccountId}`, {
      headers: { Authorization: main.mainAppId },
    });
    const { limits } = (await limitsRes.json()) as { limits: Record<string, unknown> };
    expect(text).toContain(main.defaultAccountId);
    expect(text).toContain(`*Pix day*\n${formatCents(limits.pixDayLimit as number, 'en')}`);
    expect(text).toContain(`*Pix night*\n${formatCents(limits.pixNightLimit as number, 'en')}`);
    const ownership = Object.entries(limits).filter(([field]) => /^pix(Out|In)/.test(field));
    expect(ownership).toHaveLength(8);
    for (const [field, value] of ownership) {
      expect(text).toContain(`*${limitFieldLabel(field, 'en')}*\n${formatCents(value as number, 'en')}`);
    }
    // Not money: shown as they are.
    expect(text).toContain('dayStartAt: 06:00');
    expect(text).toContain(`boletoEmissionLimit: ${limits.boletoEmissionLimit}`);
    expect(text).not.toContain(formatCents(limits.boletoEmissionLimit as number, 'en'));

    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v1/account', `GET /api/v1/limits/${main.defaultAccountId}`]);
    expect(calls.every((c) => c.authorization === main.mainAppId)).toBe(true);
  });

  test('/pix limits <accountId> reads that account', async () => {
    const main = h.sandbox.companies.main;
    const before = h.sandbox.calls.length;
    const res = await h.slash(VIEWER, `limits ${main.defaultAccountId}`);
    await waitFor('the answer', () => h.slack.responsesTo(res.responseId)[0]);
    expect(apiCallsSince(before).map((c) => c.path)).toEqual([`/api/v1/limits/${main.defaultAccountId}`]);
  });

  test('a member of a user group in ACCESS_VIEWERS is a viewer', async () => {
    const res = await h.slash(GROUP_MEMBER, 'limits');
    const [answer] = await waitFor('the answer', () => {
      const r = h.slack.responsesTo(res.responseId);
      return r.length ? r : undefined;
    });
    expect(messageText(answer!.body)).toContain('Pix day');
    expect(h.slack.callsOf('usergroups.users.list').map((c) => c.args.usergroup)).toContain('S0FINANCE');
  });

  test("another company's account reads as not found, never forbidden", async () => {
    const res = await h.slash(VIEWER, `limits ${h.sandbox.companies.other.defaultAccountId}`);
    const [answer] = await waitFor('the answer', () => {
      const r = h.slack.responsesTo(res.responseId);
      return r.length ? r : undefined;
    });
    const text = messageText(answer!.body);
    expect(text).toMatch(/not found/i);
    expect(text).toContain('Account not found');
    expect(text).not.toMatch(/forbidden|permission/i);
  });

  test('an unauthorized user is refused in the acknowledgement, and nothing reaches the Pix API', async () => {
    const before = h.sandbox.calls.length;
    const res = await h.slash(STRANGER, 'limits');
    expect(res.status).toBe(200);
    expect(res.ack?.response_type).toBe('ephemeral');
    const text = messageText(res.ack);
    expect(text).toContain('*viewer* role');
    expect(text).toContain(STRANGER);
    expect(text).toContain('ACCESS_VIEWERS');
    // Give a wrongly started handler the time to reach the sandbox, then check it did not.
    await h.slash(VIEWER, 'help');
    expect(apiCallsSince(before)).toEqual([]);
    expect(h.slack.responsesTo(res.responseId)).toEqual([]);
  });

  test("help lists what the caller's role allows", async () => {
    const viewer = messageText((await h.slash(VIEWER, 'help')).ack);
    expect(viewer).toContain('/pix limits [accountId]');
    expect(viewer).toContain('as *viewer*');
    const nobody = messageText((await h.slash(STRANGER, '')).ack);
    expect(nobody).toContain('no role');
    expect(nobody).toContain(STRANGER);
    expect(nobody).not.toContain('/pix limits');
  });

  test('an unknown subcommand or wrong arguments get usage, ephemerally', async () => {
    const unknown = (await h.slash(VIEWER, 'frobnicate')).ack;
    expect(unknown?.response_type).toBe('ephemeral');
    expect(messageText(unknown)).toContain('There is no `/pix frobnicate`');
    const tooMany = (await h.slash(VIEWER, 'limits a b')).ack;
    expect(messageText(tooMany)).toContain('Usage: `/pix limits [accountId]`');
  });

  test('a malformed account id gets usage and no call', async () => {
    const before = h.sandbox.calls.length;
    const res = await h.slash(VIEWER, 'limits ../../account');
    const [answer] = await waitFor('the answer', () => {
      const r = h.slack.responsesTo(res.responseId);
      return r.length ? r : undefined;
    });
    expect(messageText(answer!.body)).toContain('That is not an account id. Usage: `/pix limits [accountId]`');
    expect(apiCallsSince(before)).toEqual([]);
  });

  test('a bad or stale signature gets 401 and no side effect', async () => {
    const beforePix = h.sandbox.calls.length;
    const beforeSlack = h.slack.calls.length;
    const body = new URLSearchParams({
      command: '/pix',
      text: 'limits',
      user_id: VIEWER,
      channel_id: 'C1',
      response_url: h.slack.responseUrl('forged'),
      trigger_id: 't',
    }).toString();
    const forged = await h.post(body, {
      'content-type': 'application/x-www-form-urlencoded',
      ...slackSignatureHeaders(body, 'wrong-secret'),
    });
    expect(forged.status).toBe(401);
    const stale = await h.post(body, {
      'content-type': 'application/x-www-form-urlencoded',
      ...slackSignatureHeaders(body, 'test-signing-secret-0123456789abcdef', Math.floor(Date.now() / 1000) - 10 * 60),
    });
    expect(stale.status).toBe(401);
    const unsigned = await h.post(body, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(unsigned.status).toBe(401);
    expect(h.slack.calls.slice(beforeSlack).filter((c) => c.method !== 'auth.test')).toEqual([]);
    await h.slash(VIEWER, 'help');
    expect(h.sandbox.calls.length).toBe(beforePix);
    // The real help may ask Slack for the caller's language (users.info), and nothing else.
    expect(h.slack.calls.slice(beforeSlack).filter((c) => c.method !== 'auth.test' && c.method !== 'users.info')).toEqual([]);
    expect(h.slack.responsesTo('forged')).toEqual([]);
  });

  test('the Pix API failing: the user is told it could not be reached and nothing was changed', async () => {
    await fetch(`${h.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fail: { status: 503, count: 10 } }),
    });
    try {
      const res = await h.slash(OPERATOR, `limits ${h.sandbox.companies.main.defaultAccountId}`);
      const [answer] = await waitFor(
        'the answer',
        () => {
          const r = h.slack.responsesTo(res.responseId);
          return r.length ? r : undefined;
        },
        15_000,
      );
      const text = messageText(answer!.body);
      expect(text).toContain('Could not read the limits');
      expect(text).toContain('Sandbox fault');
    } finally {
      await fetch(`${h.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
  });

  test('no token, AppID or signing secret appears in the logs', async () => {
    // The app uses the AppID on the wire and logs its work here, whatever ran before: the logs had the chance to leak it.
    const [logsBefore, pixBefore] = [h.logs.length, h.sandbox.calls.length];
    const res = await h.slash(VIEWER, 'limits');
    await waitFor('the answer on the response_url', () => h.slack.responsesTo(res.responseId)[0]);
    expect(h.sandbox.calls.slice(pixBefore).map((c) => c.authorization)).toContain(h.sandbox.companies.main.mainAppId);
    expect(h.logs.length).toBeGreaterThan(logsBefore);
    const all = h.logs.join('\n');
    expect(all).not.toContain(h.sandbox.companies.main.mainAppId);
    expect(all).not.toContain('xoxb-test-bot-token');
    expect(all).not.toContain('test-signing-secret');
  });
});
