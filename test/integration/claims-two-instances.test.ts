import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { SlackStandIn } from '../../src/slack-standin/web-api';
import { openedModal, submitModal } from '../support/accounts-harness';
import { type AppProcess, startAppProcess } from '../support/app-process';
import { processDriver } from '../support/approval-flows';
import { messageText } from '../support/harness';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

const ADMIN = 'U0ADMIN01';
const CHANNEL = 'C0CLAIMS';

/**
 * what guards one submission from being acted on twice (a modal submitted twice, a
 * Confirm clicked twice, the same work started twice) is a claim in the store, not a lock in one
 * process's memory. Two app processes (`dist/src/main.js`) on the shared Redis (127.0.0.1:6379) get
 * the same submission at the same moment, as when a load balancer spreads Slack's repeat of it: one
 * set of Pix writes.
 */
describe('two instances on one Redis get the same submission at once', () => {
  let slack: SlackStandIn;
  let sandbox: SandboxHandle;
  let cwd: string;
  const namespace = testNamespace('claims');
  const running: AppProcess[] = [];

  beforeAll(async () => {
    slack = await new SlackStandIn().start();
    sandbox = await startSandbox({ port: 0 });
    cwd = mkdtempSync(path.join(tmpdir(), 'pix-ops-claims-'));
    const start = () =>
      startAppProcess(
        {
          SLACK_API_URL: slack.apiUrl,
          PIX_API_URL: sandbox.url,
          PIX_APP_ID: sandbox.companies.main.mainAppId,
          PIX_MASTER_APP_ID: sandbox.companies.main.masterAppId,
          STORE_URL: SHARED_REDIS_URL,
          STORE_SECRET: 'c'.repeat(40),
          STORE_NAMESPACE: namespace,
          POLL_SCHEDULE: '0 0 1 1 *',
          ACCESS_ADMINS: ADMIN,
          LOG_LEVEL: 'info',
        },
        { cwd },
      );
    running.push(...(await Promise.all([start(), start()])));
  });

  afterAll(async () => {
    await Promise.all(running.map((p) => p.stop()));
    await deleteKeys(SHARED_REDIS_URL, namespace);
    await sandbox.close();
    await slack.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  test('the campaign-account form submitted to both: one account, one application', async () => {
    const [a, b] = running.map((p) => processDriver(p, slack, sandbox));
    const from = slack.calls.length;
    await a!.slash(ADMIN, 'account create', { channelId: CHANNEL });
    const form = await openedModal(a!, from, 'account_create');
    const pixFrom = sandbox.calls.length;
    const values = { name: { name: { type: 'plain_text_input', value: 'Twice' } } };
    const answers = await Promise.all([submitModal(a!, ADMIN, form, values), submitModal(b!, ADMIN, form, values)]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    // Each instance decided before it answered: one took the work (its progress view), the other
    // answered without taking it, so no late duplicate can follow the writes awaited below.
    expect(answers.filter((r) => messageText(r.body).includes('Creating the account…'))).toHaveLength(1);

    const writes = () =>
      sandbox.calls
        .slice(pixFrom)
        .filter((c) => c.method === 'POST')
        .map((c) => c.path);
    await waitFor('the application created', () => writes().includes('/api/v1/application'));
    await waitFor('the announcement', () =>
      slack.calls.slice(from).some((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL),
    );
    expect(writes()).toEqual(['/api/v1/account', '/api/v1/application']);
  });
});
