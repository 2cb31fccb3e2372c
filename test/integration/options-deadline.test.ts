import { type Harness, startHarness } from '../support/harness';
import { blockSuggestion, sendInteraction } from '../support/slack-payloads';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0OPERDL1';

async function sandboxLatency(h: Harness, latencyMs: number): Promise<void> {
  const res = await fetch(`${h.sandbox.url}/sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ latencyMs }),
  });
  if (!res.ok) throw new Error(`faults: ${res.status}`);
}

describe('the options search answers within Slack’s three seconds, counted from the request’s arrival', () => {
  let h: Harness;
  beforeAll(async () => {
    // A health listener: the Pix calls are counted in the metrics it serves.
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR, HEALTH_PORT: '0' });
  });
  afterAll(() => h.close());

  test('time spent on the checks before the search (a slow locale look-up) is taken from the search’s time', async () => {
    // The user's locale takes its whole wait (1.5 s), and the accounts then come 1.5 s later: 3 s in
    // all, past Slack's patience. Counted from after the checks, the search would have had 2.5 s and
    // answered; counted from the arrival it has 1 s left, and answers nothing rather than too late.
    h.slack.on('users.info', async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      return h.slack.answerByDefault('users.info', args);
    });
    await sandboxLatency(h, 1_500);
    const since = h.sandbox.calls.length;
    const res = await sendInteraction(h, blockSuggestion(OPERATOR, { actionId: 'limit_request_account', value: '' }));
    expect(res).toEqual({ status: 200, body: { options: [] } });
    expect(h.sandbox.calls.slice(since).map((c) => `${c.method} ${c.path}`)).toEqual(['GET /api/v1/account']);

    // The same search with the checks quick (the locale now known): answered.
    await sandboxLatency(h, 0);
    const quick = await sendInteraction(h, blockSuggestion(OPERATOR, { actionId: 'limit_request_account', value: '' }));
    expect((quick.body!.options as unknown[]).length).toBeGreaterThan(0);
    // The first search's read, abandoned, still ends (counted) before the test does.
    await waitFor('both reads answered', async () =>
      (await h.app.deps.metrics.scrape())?.body.includes('pixops_pix_requests_total{route="/api/v1/account",status="200"} 2'),
    );
  });
});
