import { messageText, type Harness } from '../support/harness';
import { accountMadeElsewhere, openedModal, sandboxApi, startHarnessWithMaster, submitModal } from '../support/accounts-harness';
import { answerOn, clickRoot, pendingRoot, rejectWithReason, rootUpdates, threadPosts } from '../support/approvals';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0OPER001';
const CHECKER = 'U0OPER002';
const CHANNEL = 'C0APPROVE';

describe('smoke', () => {
  let h: Harness;
  let account: { accountId: string; appId: string; clientId: string };
  beforeAll(async () => {
    h = await startHarnessWithMaster({ ACCESS_OPERATORS: `${OPERATOR},${CHECKER}`, APPROVALS: 'key-add,key-delete' });
    account = await accountMadeElsewhere(h);
    await h.app.deps.store.accountApps.save({ accountId: account.accountId, appId: account.appId, clientId: account.clientId, name: 'x' });
  });
  afterAll(() => h.close());

  test('key add approved', async () => {
    const from = h.slack.calls.length;
    await h.slash(OPERATOR, `key add ${account.accountId}`, { channelId: CHANNEL });
    const form = await openedModal(h, from, 'pix_key_add');
    const pixBefore = h.sandbox.calls.length;
    await submitModal(h, OPERATOR, form, { type: { type: { type: 'static_select', selected_option: { value: 'EMAIL' } } }, pixKey: { value: { type: 'plain_text_input', value: 'a@b.com' } } });
    const root = await pendingRoot(h, from);
    console.log(JSON.stringify(root.call.args, null, 1));
    expect(h.sandbox.calls.slice(pixBefore).filter((c) => c.method !== 'GET')).toEqual([]);
    const self = await clickRoot(h, OPERATOR, root, 'approval_approve');
    console.log(messageText(await answerOn(h, self.responseId)));
    await clickRoot(h, CHECKER, root, 'approval_approve');
    await waitFor('done', () => rootUpdates(h, root).find((c) => messageText(c.args).includes('and done')));
    console.log(rootUpdates(h, root).map((c) => messageText(c.args)));
    console.log(threadPosts(h, root).map((c) => messageText(c.args)));
    const keys = await sandboxApi(h, 'GET', '/api/v1/pix-keys', account.appId);
    expect(keys.pixKeys.map((k: { key: string }) => k.key)).toContain('a@b.com');
    const again = await clickRoot(h, CHECKER, root, 'approval_approve');
    console.log(messageText(await answerOn(h, again.responseId)));
  });

  test('key add rejected', async () => {
    const from = h.slack.calls.length;
    await h.slash(OPERATOR, `key add ${account.accountId}`, { channelId: CHANNEL });
    const form = await openedModal(h, from, 'pix_key_add');
    await submitModal(h, OPERATOR, form, { type: { type: { type: 'static_select', selected_option: { value: 'EMAIL' } } }, pixKey: { value: { type: 'plain_text_input', value: 'c@b.com' } } });
    const root = await pendingRoot(h, from);
    const res = await rejectWithReason(h, CHECKER, root, 'not this one');
    console.log(JSON.stringify(res.body));
    await waitFor('rejected', () => threadPosts(h, root).length > 0);
    console.log(rootUpdates(h, root).map((c) => messageText(c.args)));
    console.log(threadPosts(h, root).map((c) => messageText(c.args)));
  });
});
