import { SlackStandInUploads } from '../../src/slack-standin/uploads';
import { type Harness, messageText, startHarness } from '../support/harness';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0BOOKOP1';
const VIEWER = 'U0BOOKVW1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0BOOKS01';

/** Today's year in São Paulo, computed here independently of the app. */
const spYear = Number(new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', year: 'numeric' }).format(new Date()));

async function sandboxBooklet(h: Harness, subscriptionId: string, month: number, year: number): Promise<{ status: number; bytes: Buffer }> {
  const res = await fetch(`${h.sandbox.url}/api/v1/subscriptions/${subscriptionId}/payment-book?month=${month}&year=${year}`, {
    headers: { authorization: h.sandbox.companies.main.mainAppId },
  });
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()) };
}

async function installments(h: Harness, subscriptionId: string): Promise<unknown[]> {
  const res = await fetch(`${h.sandbox.url}/sandbox/subscriptions/${subscriptionId}`);
  return ((await res.json()) as { subscription: { installments: unknown[] } }).subscription.installments;
}

const bookCalls = (h: Harness, since: number) => h.sandbox.calls.slice(since).filter((c) => c.path.endsWith('/payment-book'));

describe('/pix payment-book through the real app', () => {
  let h: Harness;
  let uploads: SlackStandInUploads;
  let subscriptionId: string;

  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR, ACCESS_VIEWERS: VIEWER });
    uploads = await new SlackStandInUploads(h.slack).start();
    subscriptionId = h.sandbox.companies.main.subscriptionId;
  });
  afterAll(async () => {
    await uploads.close();
    await h.close();
  });

  /** Runs the command and returns its answer (through response_url, or the ack for refusals). */
  const run = async (userId: string, text: string, channelId = CHANNEL) => {
    const res = await h.slash(userId, text, { channelId });
    expect(res.status).toBe(200);
    if (res.ack && Object.keys(res.ack).length > 0) return messageText(res.ack);
    const answer = await waitFor(`the answer to ${text}`, () => h.slack.responsesTo(res.responseId)[0], 10_000);
    return messageText(answer.body);
  };

  test('an operator gets the PDF posted in the channel, bytes unchanged, named after subscription and period', async () => {
    const before = h.sandbox.calls.length;
    const text = await run(OPERATOR, `payment-book ${subscriptionId} 3 ${spYear + 1}`);
    expect(text).toContain('posted here');
    expect(text).toContain(`${subscriptionId}-${spYear + 1}-03.pdf`);
    expect(text).toMatch(/does not charge again/);

    const calls = bookCalls(h, before);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({
      method: 'GET',
      query: { month: '3', year: String(spYear + 1) },
      authorization: h.sandbox.companies.main.mainAppId,
    });
    // A PDF is what this call answers: asked for as one.
    expect(calls[0]!.accept).toBe('application/pdf');

    const [posted] = uploads.sharedIn(CHANNEL);
    expect(posted).toBeDefined();
    expect(posted!.filename).toBe(`${subscriptionId}-${spYear + 1}-03.pdf`);
    expect(posted!.shared!.title).toContain(subscriptionId);
    expect(posted!.shared!.initialComment).toContain(`<@${OPERATOR}>`);
    expect(posted!.shared!.initialComment).not.toContain('SANDBOX'); // PIX_API_URL set: not sandbox mode

    // The same booklet straight from the sandbox (idempotent: nothing new is issued) is byte for byte what Slack got.
    const issued = await installments(h, subscriptionId);
    const direct = await sandboxBooklet(h, subscriptionId, 3, spYear + 1);
    expect(direct.status).toBe(200);
    expect(posted!.bytes!.equals(direct.bytes)).toBe(true);
    expect(posted!.length).toBe(direct.bytes.length);
    expect(await installments(h, subscriptionId)).toEqual(issued);
  });

  test('repeating posts the booklet again and issues nothing new', async () => {
    const issued = await installments(h, subscriptionId);
    const text = await run(OPERATOR, `payment-book ${subscriptionId} 03 ${spYear + 1}`);
    expect(text).toContain('posted here');
    expect(await installments(h, subscriptionId)).toEqual(issued);
    expect(uploads.sharedIn(CHANNEL)).toHaveLength(2);
  });

  test('in a DM channel (D…) the file goes there too', async () => {
    const text = await run(OPERATOR, `payment-book ${subscriptionId} 1 ${spYear}`, 'D0BOOKDM1');
    expect(text).toContain('posted here');
    expect(uploads.sharedIn('D0BOOKDM1')).toHaveLength(1);
  });

  test.each([
    [VIEWER, /need the \*operator\* role/],
    [STRANGER, /need the \*operator\* role/],
  ])('%s is refused and nothing reaches the Pix API', async (userId, pattern) => {
    const before = h.sandbox.calls.length;
    const shared = uploads.uploads.size;
    const res = await h.slash(userId, `payment-book ${subscriptionId} 3 ${spYear}`, { channelId: CHANNEL });
    expect(messageText(res.ack)).toMatch(pattern);
    expect(messageText(res.ack)).toContain(userId);
    expect(bookCalls(h, before)).toEqual([]);
    expect(uploads.uploads.size).toBe(shared);
  });

  test.each([
    ['13', String(spYear), /“13” is not a month/],
    ['0', String(spYear), /“0” is not a month/],
    ['march', String(spYear), /“march” is not a month/],
    ['3', '27', /“27” is not a year: write four digits/],
    ['3', '20271', /not a year/],
    ['1', String(spYear + 2), new RegExp(`up to 12/${spYear + 1} \\(the end of next year\\)`)],
  ])('month %s year %s is refused before any call', async (month, year, pattern) => {
    const before = h.sandbox.calls.length;
    const text = await run(OPERATOR, `payment-book ${subscriptionId} ${month} ${year}`);
    expect(text).toMatch(pattern);
    expect(text).toContain('Usage: `/pix payment-book <subscriptionId> <month> <year>`'.replace(/</g, '&lt;').replace(/>/g, '&gt;'));
    expect(bookCalls(h, before)).toEqual([]);
  });

  test('the last month of next year is the horizon, and is allowed', async () => {
    const text = await run(OPERATOR, `payment-book ${subscriptionId} 12 ${spYear + 1}`);
    expect(text).toContain('posted here');
  });

  test('missing arguments get the usage line', async () => {
    const res = await h.slash(OPERATOR, `payment-book ${subscriptionId} 3`, { channelId: CHANNEL });
    expect(messageText(res.ack)).toContain('Usage');
  });

  test('API errors keep the API text: an unknown subscription, a period before its start', async () => {
    const unknown = await run(OPERATOR, `payment-book ffffffffffffffffffffffff 3 ${spYear}`);
    expect(unknown).toContain('not found');
    expect(unknown).toContain('Subscription not found');
    const early = await run(OPERATOR, `payment-book ${subscriptionId} 12 ${spYear - 1}`);
    expect(early).toContain(`The period is before the start of the subscription (1/${spYear})`);
  });

  test('the Pix API failing: the user is told that installments may have been issued and repeating is safe', async () => {
    const shared = uploads.uploads.size;
    await fetch(`${h.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fail: { status: 503, count: 10, pathPrefix: '/api/v1/subscriptions/' } }),
    });
    try {
      const text = await run(OPERATOR, `payment-book ${subscriptionId} 4 ${spYear}`);
      expect(text).toContain('HTTP 503');
      expect(text).toContain('Sandbox fault');
      expect(text).toMatch(/may have been issued/);
      expect(text).toMatch(/does not charge again/);
    } finally {
      await fetch(`${h.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
    expect(uploads.uploads.size).toBe(shared);
  });

  test('a channel the bot is not in: the user is told to invite it', async () => {
    h.slack.closedChannels.add('C0CLOSED1');
    const text = await run(OPERATOR, `payment-book ${subscriptionId} 2 ${spYear}`, 'C0CLOSED1');
    expect(text).toContain('/invite @Pix Ops');
    expect(text).toMatch(/was issued/);
    expect(uploads.sharedIn('C0CLOSED1')).toEqual([]);
  });
});

describe('/pix payment-book in sandbox mode', () => {
  test('the file’s comment and the answer carry the SANDBOX badge', async () => {
    const h = await startHarness({}, { sandboxMode: true });
    const uploads = await new SlackStandInUploads(h.slack).start();
    try {
      const res = await h.slash('U0ANYONE1', `payment-book ${h.sandbox.companies.main.subscriptionId} 1 ${spYear}`, { channelId: CHANNEL });
      const answer = await waitFor('the answer', () => h.slack.responsesTo(res.responseId)[0], 10_000);
      expect(messageText(answer.body)).toContain('SANDBOX');
      const [posted] = uploads.sharedIn(CHANNEL);
      expect(posted!.shared!.initialComment).toMatch(/^\[SANDBOX\] /);
      expect(posted!.bytes!.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    } finally {
      await uploads.close();
      await h.close();
    }
  });
});
