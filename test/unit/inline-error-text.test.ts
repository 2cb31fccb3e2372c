import { inlineErrorText } from '../../views/message';

describe('inlineErrorText (a modal input error is plain text)', () => {
  test.each([
    ['*Rejected* by <@U0ADMIN02> at 05/03', 'Rejected by @U0ADMIN02 at 05/03'],
    ['Missing scope `ACCOUNT_LIMITS_GET`: _ask an admin_.', 'Missing scope ACCOUNT_LIMITS_GET: ask an admin.'],
    ['See <https://example.com/x|the portal> &amp; retry &lt;now&gt;', 'See the portal & retry <now>'],
  ])('%s', (mrkdwn, plain) => {
    expect(inlineErrorText(mrkdwn)).toBe(plain);
  });
});
