import type { Locale } from '../../src/i18n';
import { endOfMovement, endOfRead } from '../../src/payments/ends';
import type { PaymentDetail } from '../../src/pix/schemas';
import { EventBodySchema, movementSummary } from '../../src/pix-events/summary';
import { checkMessage, problemText } from '../../src/slack-standin/block-kit-rules';
import { digestMessage } from '../../views/digest';
import { presentMessage } from '../../views/message';
import { PAYMENT_LIMIT_REQUEST_ACTION, paymentEndMessage } from '../../views/payment-end';

const LOCALES: Locale[] = ['pt-BR', 'en'];
const read = (payment: Record<string, unknown>, transaction?: Record<string, unknown>): PaymentDetail =>
  ({ payment: { status: 'CREATED', ...payment }, ...(transaction ? { transaction } : {}) }) as PaymentDetail;
const textOf = (m: { text: string; blocks: unknown[] }) => `${m.text}\n${JSON.stringify(m.blocks)}`;

describe('a payment’s end, as a read of it tells (pix-money-out.md §1)', () => {
  test('CONFIRMED is confirmed, with its endToEndId', () => {
    expect(endOfRead(read({ status: 'CONFIRMED' }, { endToEndId: 'E123' }))).toEqual({ stage: 'confirmed', endToEndId: 'E123' });
  });

  test('FAILED, DENIED and REJECTED are final failures, with the code and the service’s words', () => {
    for (const status of ['FAILED', 'DENIED', 'REJECTED', 'failed']) {
      expect(endOfRead(read({ status, error: { code: 'reach_transfer_limit ', description: ' Limite atingido ' } }))).toEqual({
        stage: 'failed',
        code: 'REACH_TRANSFER_LIMIT',
        description: 'Limite atingido',
      });
    }
    expect(endOfRead(read({ status: 'FAILED' }))).toEqual({ stage: 'failed' });
  });

  test('any other status is in progress', () => {
    for (const status of ['CREATED', 'APPROVED', 'PROCESSING', 'REQUESTED', 'SOMETHING_NEW'])
      expect(endOfRead(read({ status }))).toBeUndefined();
  });
});

describe('a payment’s end, as its webhook tells (pix-money-out.md §5)', () => {
  const body = (o: unknown) => EventBodySchema.parse(o);

  test('confirmed, failed (error beside the payment or inside it), removed', () => {
    expect(
      movementSummary(
        'MOVEMENT_CONFIRMED',
        body({
          event: 'OPENPIX:MOVEMENT_CONFIRMED',
          payment: { correlationID: 'a1', status: 'CONFIRMED' },
          transaction: { endToEndId: 'E1' },
        }),
      ),
    ).toEqual({ correlationId: 'a1', stage: 'confirmed', endToEndId: 'E1' });
    const failed = movementSummary(
      'MOVEMENT_FAILED',
      body({
        event: 'OPENPIX:MOVEMENT_FAILED',
        payment: { correlationID: 'a2' },
        error: { code: 'NOT_ENOUGH_BALANCE', description: 'Saldo' },
      }),
    );
    expect(failed).toEqual({ correlationId: 'a2', stage: 'failed', code: 'NOT_ENOUGH_BALANCE', description: 'Saldo' });
    expect(endOfMovement(failed!)).toEqual({ stage: 'failed', code: 'NOT_ENOUGH_BALANCE', description: 'Saldo' });
    expect(
      movementSummary('MOVEMENT_FAILED', body({ event: 'x', payment: { correlationID: 'a3', error: { code: 'INVALID_PIX_KEY' } } }))?.code,
    ).toBe('INVALID_PIX_KEY');
    expect(movementSummary('MOVEMENT_REMOVED', body({ event: 'x', payment: { correlationID: 'a4' } }))).toEqual({
      correlationId: 'a4',
      stage: 'removed',
    });
  });

  test('no correlationID, or another kind: not a payment’s end', () => {
    expect(movementSummary('MOVEMENT_CONFIRMED', body({ event: 'x', payment: { status: 'CONFIRMED' } }))).toBeUndefined();
    expect(movementSummary('CHARGE_COMPLETED', body({ event: 'x', payment: { correlationID: 'a' } }))).toBeUndefined();
  });
});

describe('the reply in the approval’s thread', () => {
  test.each(LOCALES)('each code of §2 in words; the limit button and the balance where the code calls for them (%s)', (locale) => {
    const limit = paymentEndMessage(locale, { stage: 'failed', value: 12345, accountId: 'acc1', code: 'REACH_TRANSFER_LIMIT' });
    expect(JSON.stringify(limit.blocks)).toContain(PAYMENT_LIMIT_REQUEST_ACTION);
    expect(JSON.stringify(limit.blocks)).toContain('{\\"accountId\\":\\"acc1\\"}');
    expect(textOf(limit)).toMatch(locale === 'en' ? /daytime or night-time Pix limit/ : /limite Pix diurno ou noturno/);
    const balance = paymentEndMessage(locale, {
      stage: 'failed',
      value: 12345,
      accountId: 'acc1',
      code: 'NOT_ENOUGH_BALANCE',
      available: 500,
    });
    expect(textOf(balance)).toContain(locale === 'en' ? 'R$5.00' : 'R$ 5,00');
    expect(JSON.stringify(balance.blocks)).not.toContain(PAYMENT_LIMIT_REQUEST_ACTION);
    const unknown = paymentEndMessage(locale, {
      stage: 'failed',
      value: 1,
      accountId: 'acc1',
      code: 'SOMETHING_NEW',
      description: '<b>x</b>',
    });
    expect(textOf(unknown)).toContain('SOMETHING_NEW');
    expect(textOf(unknown)).toContain('&lt;b&gt;x&lt;/b&gt;');
    for (const code of ['ALIAS_LIMIT_ERROR', 'PAY_PIX_KEY_ERROR', 'PIX_KEY_INFO_ERROR', 'PIX_KEY_INFO_NOT_FOUND', 'INVALID_PIX_KEY']) {
      const m = paymentEndMessage(locale, { stage: 'failed', value: 1, accountId: 'a', code });
      expect(m.text).not.toContain(code);
    }
  });

  test.each(LOCALES)('at their largest, as Slack judges them (%s)', (locale) => {
    const big = { value: Number.MAX_SAFE_INTEGER, accountId: 'a'.repeat(64), endToEndId: 'E'.repeat(500) };
    for (const input of [
      { ...big, stage: 'confirmed' as const },
      { ...big, stage: 'removed' as const },
      { ...big, stage: 'failed' as const, code: 'REACH_TRANSFER_LIMIT', description: '<&>'.repeat(500) },
      { ...big, stage: 'failed' as const, code: 'NOT_ENOUGH_BALANCE', available: -Number.MAX_SAFE_INTEGER },
      { ...big, stage: 'failed' as const, code: 'X'.repeat(100), available: 'unread' as const },
    ]) {
      expect(checkMessage(presentMessage(paymentEndMessage(locale, input), locale, true)).map(problemText)).toEqual([]);
    }
  });
});

describe('money out in the digest', () => {
  const data = (moneyOut: Parameters<typeof digestMessage>[1]['moneyOut']) => ({
    now: new Date('2026-12-05T12:00:00.000Z'),
    approvals: { ok: true as const, value: { items: [], total: 0 } },
    inReview: { ok: true as const, value: { items: [], total: 0 } },
    accounts: { ok: true as const, value: { below: { items: [], total: 0 }, blocked: { items: [], total: 0 } } },
    ...(moneyOut ? { moneyOut } : {}),
  });
  const since = new Date('2026-12-04T12:00:00.000Z');

  test.each(LOCALES)('sent and failed since the last digest, in R$, beside "nothing is waiting" (%s)', (locale) => {
    const message = digestMessage(
      locale,
      data({ ok: true, value: { since, sent: { count: 3, total: 123_456 }, failed: { count: 1, total: 5_000 } } }),
    );
    const text = textOf(message);
    expect(text).toContain(locale === 'en' ? 'R$1,234.56' : 'R$ 1.234,56');
    expect(text).toContain(locale === 'en' ? 'R$50.00' : 'R$ 50,00');
    expect(text).toMatch(locale === 'en' ? /Nothing is waiting/ : /Nada/);
    expect(checkMessage(message).map(problemText)).toEqual([]);
  });

  test('nothing sent: no section; a part that could not be read says so, and the digest is never "nothing waiting" then', () => {
    const none = textOf(
      digestMessage('en', data({ ok: true, value: { since, sent: { count: 0, total: 0 }, failed: { count: 0, total: 0 } } })),
    );
    expect(none).not.toContain('Money out');
    const unread = textOf(digestMessage('en', data({ ok: false, action: 'readDigest' })));
    expect(unread).not.toContain('Nothing is waiting');
    expect(unread).toContain('put the digest together');
  });
});
