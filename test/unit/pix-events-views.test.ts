import type { Locale } from '../../src/i18n';
import { disputeSummary, EventBodySchema, eventTime, otherEventSummary } from '../../src/pix-events/summary';
import { checkMessage, checkView, problemText } from '../../src/slack-standin/block-kit-rules';
import type { DisputeRecord } from '../../src/store/pix-events';
import { evidenceModal } from '../../views/dispute-evidence';
import { type HomeData, homeView } from '../../views/home';
import { presentMessage } from '../../views/message';
import { disputeReplyMessage, disputeRootMessage, openDisputesBlocks, otherEventMessage } from '../../views/pix-events';

const LOCALES: Locale[] = ['pt-BR', 'en'];
const long = (n: number, c = 'x') => c.repeat(n);
const problems = (p: ReturnType<typeof checkMessage>) => p.map(problemText);

/** The largest a summary can hold (every text field capped at 500 by summary.ts), the largest amounts. */
const biggest: DisputeRecord = {
  endToEndId: long(100, 'E'),
  id: long(64, 'a'),
  status: 'OPENED',
  type: long(500, 'T'),
  value: Number.MAX_SAFE_INTEGER,
  reason: long(500, '<&>'),
  name: long(500, 'N'),
  email: long(500, 'e'),
  phone: long(500, '9'),
  taxId: long(500, '1'),
  channel: 'C0EVENTS',
  closed: false,
  firstAt: '2026-11-25T10:00:00.000Z',
  updatedAt: '2026-11-25T10:00:00.000Z',
};

describe('the Pix events views at their largest, as Slack judges them', () => {
  test.each(LOCALES)('the dispute root, a reply, a compact message (%s)', (locale) => {
    expect(problems(checkMessage(presentMessage(disputeRootMessage(locale, biggest), locale, true)))).toEqual([]);
    expect(problems(checkMessage(disputeReplyMessage(locale, { e2e: biggest.endToEndId, status: 'ACCEPTED', late: false })))).toEqual([]);
    const other = otherEventMessage(locale, long(200, 'K'), {
      value: -Number.MAX_SAFE_INTEGER,
      correlationId: long(500, 'c'),
      status: long(500, 's'),
      name: long(500, 'n'),
      taxId: long(500, '2'),
    });
    expect(problems(checkMessage(other))).toEqual([]);
  });

  test.each(LOCALES)('the Home tab with many open disputes, and the evidence form without an id (%s)', (locale) => {
    const disputes = Array.from({ length: 300 }, (_, i) => ({ ...biggest, endToEndId: `${long(96, 'E')}${String(i).padStart(4, '0')}` }));
    const data: HomeData = {
      now: new Date('2026-11-25T12:00:00Z'),
      inReview: { ok: true, value: { items: [], total: 0 } },
      decisions: { ok: true, value: [] },
      accounts: { ok: true, value: [] },
      link: () => undefined,
    };
    const view = homeView(locale, { userId: 'U1', role: 'operator', data, sandbox: true, disputes: { ok: true, value: disputes } });
    expect(checkView(view).map(problemText)).toEqual([]);
    expect(openDisputesBlocks(locale, { disputes, max: 10 })).toHaveLength(3);
    expect(checkView(evidenceModal(locale, { channelId: 'C1' }, true)).map(problemText)).toEqual([]);
  });
});

describe('what is kept of an event', () => {
  test('a dispute: the service’s fields, e-mail, phone and tax id masked, nothing else', () => {
    const body = EventBodySchema.parse({
      event: 'OPENPIX:DISPUTE_CREATED',
      dispute: {
        status: 'OPENED',
        endToEndId: 'E1',
        name: 'Seu Jorge',
        email: 'seu.jorge@example.com',
        phoneNumber: '+5519989673846',
        value: 1000,
        disputeReason: 'Golpe',
        taxID: '39053344705',
        secret: 'x',
      },
    });
    expect(disputeSummary('DISPUTE_CREATED', body)).toEqual({
      endToEndId: 'E1',
      status: 'OPENED',
      value: 1000,
      reason: 'Golpe',
      name: 'Seu Jorge',
      email: 's***@example.com',
      phone: '+5519*****3846',
      taxId: '***.533.447-**',
    });
  });

  test('the status comes from the kind; fields of the wrong type are dropped, not refused', () => {
    const body = EventBodySchema.parse({
      event: 'woovi:DISPUTE_ACCEPTED',
      dispute: { endToEndId: 'E2', status: 'OPENED', value: 'lots', name: 42 },
    });
    expect(disputeSummary('DISPUTE_ACCEPTED', body)).toEqual({ endToEndId: 'E2', status: 'ACCEPTED', name: '42' });
    expect(disputeSummary('DISPUTE_ACCEPTED', EventBodySchema.parse({ event: 'x:DISPUTE_ACCEPTED', dispute: {} }))).toBeUndefined();
  });

  test('a charge: amount, correlation ID, status, name, masked tax id', () => {
    const body = EventBodySchema.parse({
      event: 'OPENPIX:CHARGE_COMPLETED',
      charge: {
        value: 4990,
        correlationID: 'order-1',
        status: 'COMPLETED',
        customer: { name: 'Pedro', email: 'p@example.com', taxID: { taxID: '12345678000195', type: 'BR:CNPJ' } },
      },
    });
    expect(otherEventSummary(body)).toEqual({
      value: 4990,
      correlationId: 'order-1',
      status: 'COMPLETED',
      name: 'Pedro',
      taxId: '**.345.678/****-**',
    });
  });

  test('when it happened: the newest of the times the service’s payloads carry; a creation time, a bad time or none is no time', () => {
    const at = (body: Record<string, unknown>) => eventTime(EventBodySchema.parse({ event: 'OPENPIX:X', ...body }));
    const t = (iso: string) => Date.parse(iso);
    expect(at({ charge: { createdAt: '2026-11-30T10:00:00Z', updatedAt: '2026-11-01T10:00:05Z', paidAt: '2026-11-01T10:00:01Z' } })).toBe(
      t('2026-11-01T10:00:05Z'),
    );
    expect(at({ pix: { time: '2026-10-01T00:00:00Z', charge: { paidAt: '2026-10-02T00:00:00Z' } } })).toBe(t('2026-10-02T00:00:00Z'));
    expect(at({ refundTransaction: { time: '2025-08-14T21:31:49.755Z', createdAt: '2026-01-01T00:00:00Z' } })).toBe(
      t('2025-08-14T21:31:49.755Z'),
    );
    expect(at({ charge: { createdAt: '2020-01-01T00:00:00Z' } })).toBeUndefined();
    expect(at({ charge: { updatedAt: 'yesterday' }, pix: { time: 17 } })).toBeUndefined();
    expect(at({ dispute: { endToEndId: 'E1', status: 'OPENED' } })).toBeUndefined();
  });
});
