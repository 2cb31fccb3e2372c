import type { Locale } from '../../src/i18n';
import { MONEY_OUT_STAGES, type MoneyOutRecord } from '../../src/payments/records';
import { checkMessage, problemText } from '../../src/slack-standin/block-kit-rules';
import type { ApprovalRecord } from '../../src/store/approvals';
import { moneyOutRoot, PAYMENT_RETRY_ACTION_ID } from '../../views/money-out-root';
import { messageText } from '../support/harness';

const AT = '2026-03-05T17:30:00.000Z';

const payment: ApprovalRecord = {
  id: 'a1b2c3d4e5f60718',
  action: 'pay',
  makerId: 'U0MAKER01',
  makerLocale: 'en',
  channel: 'C0PAY',
  rootTs: '1700000000.000100',
  state: 'done',
  createdAt: AT,
  expiresAt: AT,
  updatedAt: AT,
  checkerId: 'U0CHECK02',
  decidedAt: AT,
  required: 2,
  approvedBy: [
    { userId: 'U0CHECK01', at: AT },
    { userId: 'U0CHECK02', at: AT },
  ],
  askedBalance: { available: 5_000, at: AT },
  payload: {
    action: 'pay',
    sourceAccountId: 'acc1',
    value: 12_345,
    destinationAlias: '71460238001',
    destinationAliasType: 'CPF',
    comment: 'Invoice *42*',
    receiver: { verified: true, name: 'Ana <Beatriz>', taxId: '71460238001', bank: 'Nu Pagamentos S.A.' },
  },
};

const withdraw: ApprovalRecord = {
  ...payment,
  id: 'f0e1d2c3b4a59687',
  action: 'withdraw',
  payload: { action: 'withdraw', accountId: 'acc2', value: 40_000, withdrawKey: { pixKey: '+5511987654321', type: 'PHONE' } },
};

const record = (stage: MoneyOutRecord['stage'], extra: Partial<MoneyOutRecord> = {}): MoneyOutRecord => ({
  approvalId: payment.id,
  kind: 'pay',
  accountId: 'acc1',
  value: 12_345,
  day: '2026-03-05',
  stage,
  updatedAt: AT,
  ...extra,
});

/** What each stage's root must say (en). */
const SAYS: Record<MoneyOutRecord['stage'], { extra?: Partial<MoneyOutRecord>; text: RegExp[] }> = {
  sending: { text: [/sending…/] },
  short: { extra: { balance: { available: 5_000, at: AT } }, text: [/\*not sent\*/, /R\$50\.00/] },
  sent: { extra: { sentAt: AT, sentBy: 'U0CHECK02', endToEndId: 'E123' }, text: [/\*Sent\*/, /<@U0CHECK02>’s approval/, /E123/] },
  confirmed: { extra: { sentAt: AT, endedAt: AT, endToEndId: 'E123' }, text: [/\*Sent\*/, /\*Confirmed\*/, /E123/] },
  failed: {
    extra: { sentAt: AT, endedAt: AT, failure: { code: 'REACH_TRANSFER_LIMIT', description: 'Limite <atingido>' } },
    text: [/\*The payment failed\* \(`REACH_TRANSFER_LIMIT`\): Limite &lt;atingido&gt;/],
  },
  removed: { text: [/\*Removed\*/] },
  withdrawn: { extra: { sentAt: AT, endToEndId: 'E9', balance: { available: 60_000, at: AT } }, text: [/\*Withdrawn\*/, /R\$600\.00/] },
  unknown: {
    extra: { balance: { available: 75_000, at: AT }, entries: [{ type: 'DEBIT', value: 25_000, description: 'Withdraw' }] },
    text: [/outcome is unknown/, /R\$750\.00/, /Latest statement entries/, /Withdraw/],
  },
};

describe('the money-out root, every stage from the two records', () => {
  test.each(MONEY_OUT_STAGES.map((s) => [s]))('%s: says where the money stands; valid Block Kit; CPF and key masked', (stage) => {
    const { extra, text } = SAYS[stage];
    const message = moneyOutRoot('en', payment, record(stage, extra), { approversListed: false });
    expect(checkMessage(message).map(problemText)).toEqual([]);
    const shown = messageText(message);
    for (const pattern of text) expect(shown).toMatch(pattern);
    expect(shown).toContain('Amount: *R$123.45*');
    expect(shown).toContain('lower than the amount');
    expect(shown).toContain('Receiver: *Ana &lt;Beatriz&gt;*, tax ID `***.602.380-**`, Nu Pagamentos S.A.');
    expect(shown).not.toContain('71460238001');
    const retry = JSON.stringify(message.blocks).includes(PAYMENT_RETRY_ACTION_ID);
    expect(retry).toBe(stage === 'short');
    expect(JSON.stringify(message.blocks)).not.toContain('approval_approve');
  });

  test('a withdraw: amount, account, its withdraw key masked and its type', () => {
    const message = moneyOutRoot('en', withdraw, record('withdrawn', { kind: 'withdraw', sentAt: AT, endToEndId: 'E9' }), {
      approversListed: true,
    });
    const shown = messageText(message);
    expect(shown).toContain('Withdraw from an account');
    expect(shown).toContain('Amount: *R$400.00*');
    expect(shown).toContain('To the account’s withdraw key `+5511*****4321` (');
    expect(shown).not.toContain('987654321');
  });

  test.each<[Locale]>([['pt-BR'], ['en']])('without a record: the approval’s own state (%s)', (locale) => {
    const failed = moneyOutRoot(locale, { ...payment, state: 'failed' }, undefined, { approversListed: false });
    expect(checkMessage(failed).map(problemText)).toEqual([]);
    expect(messageText(failed)).toMatch(locale === 'en' ? /did not go through/ : /R\$ 123,45/);
  });
});
