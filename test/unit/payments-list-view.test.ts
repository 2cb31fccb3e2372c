import { paymentStatusText, paymentsListMessage } from '../../views/payments-list';
import { messageText } from '../support/harness';

// The statuses the service's documents disagree on (pix-money-out.md §1): CREATED, CONFIRMED and FAILED
// as they are, DENIED and REJECTED final failures, anything else in progress.

describe('a payment’s status in words', () => {
  test.each([
    ['CREATED', 'created, not approved at the service'],
    ['CONFIRMED', 'confirmed'],
    ['FAILED', 'failed'],
    ['DENIED', 'denied'],
    ['REJECTED', 'rejected'],
    ['APPROVED', 'in progress'],
    ['PROCESSING', 'in progress'],
    ['requested', 'in progress'],
  ])('%s reads "%s"', (status, words) => {
    expect(paymentStatusText('en', { status })).toBe(words);
  });

  test('a failure names its code, escaped', () => {
    expect(paymentStatusText('en', { status: 'FAILED', error: { code: 'NOT_ENOUGH_BALANCE' } })).toBe('failed (NOT_ENOUGH_BALANCE)');
    expect(paymentStatusText('pt-BR', { status: 'FAILED', error: { code: '<b>' } })).toBe('falhou (&lt;b&gt;)');
  });
});

describe('a page of payments', () => {
  test('what the service left out is shown as missing, a key of unknown type hidden but for its end', () => {
    const message = paymentsListMessage('en', {
      page: 1,
      pageSize: 10,
      items: [{ payment: { status: 'CREATED', destinationAlias: '11987654321' } }, { payment: { status: 'CONFIRMED', value: 1500.5 } }],
      hasNext: false,
    });
    const text = messageText(message);
    expect(text).toContain('*—* to `***21` · created');
    expect(text).toContain('*1500.5* to — · confirmed');
    expect(text).not.toContain('11987654321');
  });
});
