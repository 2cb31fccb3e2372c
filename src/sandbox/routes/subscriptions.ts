import { z } from 'zod';
import type { ApiRouter } from '../context';
import { fail } from '../http';
import { buildPdf } from '../pdf';
import type { Installment, SandboxState, Subscription } from '../state';
import { parseWith } from '../validate';

const DUE_DAY = 10;

const periodSchema = z.object({
  month: z
    .string({ error: 'is required' })
    .regex(/^\d{1,2}$/, 'must be a month number from 1 to 12')
    .transform(Number)
    .pipe(z.number().min(1, 'must be a month number from 1 to 12').max(12, 'must be a month number from 1 to 12')),
  year: z
    .string({ error: 'is required' })
    .regex(/^\d{4}$/, 'must be a four-digit year')
    .transform(Number),
});

const YEAR = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Sao_Paulo', year: 'numeric' });
const saoPauloYear = (at: Date): number => Number(YEAR.format(at));

/** Months are counted as `year * 12 + (month - 1)` so periods compare as integers. */
const monthIndex = (year: number, month: number): number => year * 12 + month - 1;

export function registerSubscriptionRoutes(router: ApiRouter): void {
  router.add('GET', '/api/v1/subscriptions/:id/payment-book', {
    scope: 'SUBSCRIPTION_PAYMENT_BOOK_GET',
    handle({ state, caller, params, query }) {
      const subscription = state.subscriptionOf(caller.companyId, params.id ?? '');
      if (!subscription) throw fail(404, 'Subscription not found');
      const { month, year } = parseWith(periodSchema, query);

      // "The end of next year", next year counted in Brasília time like the service's own calendar.
      const latestYear = saoPauloYear(new Date()) + 1;
      if (year > latestYear) throw fail(400, `The payment book is available up to 12/${latestYear}`);
      const first = monthIndex(subscription.startYear, subscription.startMonth);
      const last = monthIndex(year, month);
      if (last < first) {
        throw fail(400, `The period is before the start of the subscription (${subscription.startMonth}/${subscription.startYear})`);
      }

      const installments: Installment[] = [];
      for (let index = first; index <= last; index++) {
        installments.push(issueInstallment(state, subscription, index, index - first + 1));
      }
      return {
        status: 200,
        contentType: 'application/pdf',
        bytes: bookletPdf(subscription, month, year, installments),
        headers: { 'content-disposition': `inline; filename="payment-book-${subscription.id}-${year}-${month}.pdf"` },
      };
    },
  });
}

/** Issues the charge of one installment, or returns the one issued before (idempotent). */
function issueInstallment(state: SandboxState, subscription: Subscription, index: number, number: number): Installment {
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const key = `${year}-${String(month).padStart(2, '0')}`;
  const existing = subscription.installments.get(key);
  if (existing) return existing;
  const installment: Installment = {
    number,
    month,
    year,
    dueDate: `${key}-${String(DUE_DAY).padStart(2, '0')}`,
    value: subscription.value,
    chargeId: state.ids.objectId(),
    issuedAt: new Date().toISOString(),
  };
  subscription.installments.set(key, installment);
  return installment;
}

function bookletPdf(subscription: Subscription, month: number, year: number, installments: Installment[]): Buffer {
  const money = (cents: number): string => `R$ ${(cents / 100).toFixed(2).replace('.', ',')}`;
  return buildPdf([
    'Payment booklet (SANDBOX)',
    `Subscription ${subscription.id} - ${subscription.type} - ${subscription.chargeType}`,
    `Customer: ${subscription.customerName}`,
    `Period: ${subscription.startMonth}/${subscription.startYear} to ${month}/${year}`,
    '',
    ...installments.map((i) => `Installment ${i.number}: due ${i.dueDate}, ${money(i.value)}, boleto charge ${i.chargeId}`),
  ]);
}
