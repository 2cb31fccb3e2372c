import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuditLog } from '../audit/recorder';
import { errorText } from '../errors';
import type { Logger } from '../runtime/logger';
import type { Metrics } from '../runtime/metrics';
import { ThrottledWarning } from '../runtime/throttled-warning';
import { EVENT_MAX_AGE_MS, keptUntilOf, type PixEventRecord, type PixEventsRepo } from '../store/pix-events';
import { disputeStatusOf, isListed, kindOf } from './kinds';
import type { PublicKeys } from './public-keys';
import { disputeSummary, EventBodySchema, eventTime, movementSummary, otherEventSummary, TestDeliverySchema } from './summary';

/** Bodies over this are refused with 413 (the contract). */
export const MAX_BODY_BYTES = 1024 * 1024;
export const SIGNATURE_HEADER = 'x-webhook-signature';
/** Who the audit trail says acted: the service, not a Slack user. */
export const WEBHOOK_ACTOR = 'pix-service';
/** The kind the audit trail and the metrics give the service's test delivery. */
const TEST_KIND = 'TEST';
/** The kind the metrics give a body that is no event. */
const NO_KIND = 'none';

export interface ReceiverOptions {
  keys: PublicKeys;
  events: PixEventsRepo;
  /** PIX_EVENTS. */
  kinds: readonly string[];
  audit: AuditLog;
  metrics: Metrics;
  logger: Logger;
  /**
   * Whether a payment's `correlationID` is one of this app's (an approval's): its end goes to that
   * approval's thread whatever PIX_EVENTS lists. Unset: every payment event is like any other kind.
   */
  ownsPayment?: (correlationId: string) => Promise<boolean>;
  /** A new event is recorded: post it now (outbox.ts). */
  nudge: () => void;
  now?: () => number;
}

type Answer = { status: number; body: Record<string, unknown> };
/** What the receiver says at most once a minute: deliveries refused for their signature, events too old to post. */
interface Warnings {
  refusals: ThrottledWarning<'unsigned' | 'invalid'>;
  tooOld: ThrottledWarning<never>;
}

/**
 * The webhook receiver: a plain Node handler (Bolt's custom route in HTTP mode, a server of its own in
 * Socket Mode). Before it answers it only reads the bytes (at most 1 MiB), checks the signature over
 * them, parses, and records the event under the SHA-256 of the bytes; posting is the outbox's job,
 * after the answer. The body is never logged, nor put in the audit trail. Whatever a signed body was
 * (an event to post, the service's test delivery, a kind not listed, an event too old, no event at
 * all), its hash is recorded, so that the same bytes again are a repeat: answered as the first time,
 * counted, and neither posted nor put in the audit trail again (a dispute's events are repeats as
 * long as the dispute is kept).
 */
export function webhookHandler(options: ReceiverOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const now = options.now ? { now: options.now } : {};
  const warnings: Warnings = {
    refusals: new ThrottledWarning({
      logger: options.logger,
      message: 'webhooks refused: missing or invalid signature (at most one line a minute; the count is since the last line)',
      total: 'refused',
      kinds: ['unsigned', 'invalid'],
      ...now,
    }),
    // Signed, but anyone who kept a copy can send one again.
    tooOld: new ThrottledWarning({
      logger: options.logger,
      message:
        'webhook events too old to tell from a replay: answered 200, not posted (at most one line a minute; the count is since the last line)',
      total: 'tooOld',
      ...now,
    }),
  };
  return (req, res) => {
    void receive(options, warnings, req).then(
      (answer) => reply(res, answer),
      (err: unknown) => {
        options.logger.error({ err: errorText(err) }, 'the webhook receiver failed');
        reply(res, { status: 500, body: { error: 'internal error' } });
      },
    );
  };
}

function reply(res: ServerResponse, answer: Answer): void {
  if (res.headersSent) return;
  const payload = JSON.stringify(answer.body);
  res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload) });
  res.end(payload);
}

async function receive(o: ReceiverOptions, warnings: Warnings, req: IncomingMessage): Promise<Answer> {
  if (req.method !== 'POST') {
    req.resume();
    return { status: 405, body: { error: 'POST only' } };
  }
  const raw = await readCapped(req, MAX_BODY_BYTES);
  if (raw === 'too-large') {
    o.logger.warn('webhook refused: body over 1 MiB');
    o.metrics.webhookEvent(NO_KIND, 'too_large');
    return { status: 413, body: { error: 'body too large' } };
  }
  const signature = req.headers[SIGNATURE_HEADER];
  const signed = typeof signature === 'string' && signature.trim() !== '';
  if (!signed || !(await o.keys.verify(raw, signature.trim()))) {
    // Anyone can send these: counted, logged at most once a minute, never in the audit trail (which
    // would grow with every forged request and credit them to the service).
    warnings.refusals.note(signed ? 'invalid' : 'unsigned');
    o.metrics.webhookEvent(NO_KIND, 'bad_signature');
    return { status: 401, body: { error: 'invalid signature' } };
  }
  const hash = createHash('sha256').update(raw).digest('hex');
  const now = o.now ?? Date.now;
  const receivedAt = new Date(now()).toISOString();
  let json: unknown;
  try {
    json = JSON.parse(raw.toString('utf8'));
  } catch {
    json = undefined;
  }
  const parsed = EventBodySchema.safeParse(json);
  if (!parsed.success && TestDeliverySchema.safeParse(json).success) {
    // The service checking the receiver from its dashboard: answered as it expects, nothing to post.
    return once(o, { hash, kind: TEST_KIND, receivedAt, dropped: 'test_delivery' }, OK, 'test delivery', () =>
      o.logger.info('webhook test delivery from the service: answered 200, nothing posted'),
    );
  }
  if (!parsed.success) {
    return once(o, { hash, kind: NO_KIND, receivedAt, dropped: 'not_event' }, NOT_EVENT, 'not JSON', () =>
      o.logger.warn('webhook refused: not a JSON event'),
    );
  }
  const kind = kindOf(parsed.data.event);
  // An event with a time of its own (summary.ts, eventTime) is posted only while it is young, and kept
  // a day past that (keptUntilOf); one without is kept for good. Its age is asked first: an event kept
  // until it was too old, sent again, is dropped as too old, and kept so for good.
  const at = eventTime(parsed.data);
  if (at !== undefined && now() - at > EVENT_MAX_AGE_MS) {
    // Answered 2xx all the same: the service would send it again on any other answer, and a replay
    // by someone else learns nothing from it.
    warnings.tooOld.note();
    return once(o, { hash, kind, receivedAt, dropped: 'too_old' }, OK, 'too old: not posted');
  }
  const keptUntil = keptUntilOf(Date.parse(receivedAt), at);
  const kept = keptUntil === undefined ? {} : { keptUntil };
  // A payment this app sent ends in its approval's thread, listed or not; one it did not make is an
  // event like any other (posted to the channel only when listed).
  const payment = movementSummary(kind, parsed.data);
  let ours = false;
  if (payment && o.ownsPayment) {
    try {
      ours = await o.ownsPayment(payment.correlationId);
    } catch (err) {
      return notRecorded(o, kind, `webhook:${kind.slice(0, 60)}`, err);
    }
  }
  if (ours) {
    return once(o, { hash, kind, receivedAt, ...kept, movement: payment }, OK, 'recorded: a payment of this app', () => {
      o.logger.info({ kind, event: hash.slice(0, 12) }, 'webhook event recorded: a payment’s end');
      setImmediate(o.nudge);
    });
  }
  if (!isListed(kind, o.kinds)) {
    return once(o, { hash, kind, receivedAt, dropped: 'not_listed', ...kept }, OK, 'not listed', () =>
      o.logger.debug({ kind }, 'webhook event not listed in PIX_EVENTS: dropped'),
    );
  }
  const dispute = disputeStatusOf(kind) ? disputeSummary(kind, parsed.data) : undefined;
  const record: PixEventRecord = {
    hash,
    kind,
    receivedAt,
    ...kept,
    ...(dispute ? { dispute } : { other: otherEventSummary(parsed.data) }),
  };
  return once(o, record, OK, 'recorded', () => {
    o.logger.info({ kind, event: hash.slice(0, 12) }, 'webhook event recorded');
    setImmediate(o.nudge);
  });
}

const OK: Answer = { status: 200, body: { ok: true } };
const NOT_EVENT: Answer = { status: 400, body: { error: 'expected a JSON event' } };

/**
 * Records what a verified body was, under its hash, and answers: at its first receipt, with an audit
 * entry (`detail`) and `first` run; a repeat of it (the same bytes, whatever it was) is counted in the
 * metrics and nothing more, so that a captured body sent again and again cannot bury the trail. When
 * the store fails it is not answered 2xx: the service sends it again.
 */
async function once(o: ReceiverOptions, record: PixEventRecord, answer: Answer, detail: string, first?: () => void): Promise<Answer> {
  const { kind, dispute } = record;
  const action = kind === NO_KIND ? 'webhook' : `webhook:${kind.slice(0, 60)}`;
  let added: boolean;
  try {
    // One of a dispute's events is a repeat for as long as the dispute is kept, not only while its own key is.
    added = !(dispute && (await o.events.dispute(dispute.endToEndId))?.events?.includes(record.hash)) && (await o.events.add(record));
  } catch (err) {
    return notRecorded(o, kind, action, err);
  }
  if (!added) {
    o.logger.debug({ kind, event: record.hash.slice(0, 12) }, 'webhook delivery repeated: already received');
    o.metrics.webhookEvent(kind, 'repeat');
    return answer;
  }
  first?.();
  void o.audit.record({ user: WEBHOOK_ACTOR, role: 'none', action, outcome: answer.status === 200 ? 'ok' : 'usage', detail });
  o.metrics.webhookEvent(kind, record.dropped ?? 'recorded');
  return answer;
}

/** The store failed: not answered 2xx, so that the service sends it again. */
function notRecorded(o: ReceiverOptions, kind: string, action: string, err: unknown): Answer {
  o.logger.warn({ kind, err: errorText(err) }, 'webhook event not recorded (the store failed); the service will retry');
  void o.audit.record({ user: WEBHOOK_ACTOR, role: 'none', action, outcome: 'error', detail: 'not recorded' });
  o.metrics.webhookEvent(kind, 'not_recorded');
  return { status: 503, body: { error: 'storage unavailable' } };
}

/** The body, or 'too-large' past `max` bytes (the rest is drained, not kept). */
function readCapped(req: IncomingMessage, max: number): Promise<Buffer | 'too-large'> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > max) {
    req.resume();
    return Promise.resolve('too-large');
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > max) {
        over = true;
        chunks.length = 0;
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(over ? 'too-large' : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
