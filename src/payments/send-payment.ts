import { escapeClipped, plain } from '../../views/message';
import { ApprovalInDoubtError, type ApprovalResult, type ApprovalRun } from '../approvals/kinds';
import { formatCents } from '../domain/money';
import type { PayPayload } from '../domain/money-out';
import { maskTaxId } from '../domain/pix-key-mask';
import { messages } from '../i18n';
import type { PaymentInput } from '../pix/client';
import { PixApiError } from '../pix/errors';
import type { PaymentDetail } from '../pix/schemas';
import type { ApprovalIntent } from '../store/approvals';
import {
  auditStep,
  balanceNow,
  endNotSent,
  idWord,
  mayHaveBeenDone,
  moveMoneyOut,
  releaseDay,
  serviceWords,
  startSending,
} from './money-out';

// Sending an approved payment (pix-money-out.md §1), exactly once across instances, restarts and a
// crash between the service's two calls. The approval's id is the payment's `correlationID`, the
// service's idempotency key, and the only one it ever gets: a creation answered "already exists" is
// this payment, read back; it is approved only while the service reads it CREATED. Each call is
// preceded by its intent, so a resumption (the tick, once the claim lapsed) knows which call it may
// have made, and reads the payment before making any again. A call that got no answer (or a 5xx)
// leaves the approval `approving` for that resumption.

/** The service's text when a payment with this `correlationID` exists (§1). */
const ALREADY_EXISTS = /j[áa]\s+existe\s+um\s+pagamento\s+com\s+o\s+correlationid/i;
/** The service's text when the account lacks the money (§1): "Você não possui saldo o suficiente…". */
const NOT_ENOUGH_BALANCE = /n[ãa]o\s+possui\s+saldo/i;

const refusedWith = (err: unknown, pattern: RegExp) =>
  err instanceof PixApiError && err.kind === 'http' && err.status === 400 && pattern.test(err.error ?? '');

/** The creation's body: the approval's id as `correlationID`, the check's `pixKeyEndToEndId`; never `autoApprove`. */
function paymentInput(correlationID: string, p: PayPayload): PaymentInput {
  return {
    value: p.value,
    destinationAlias: p.destinationAlias,
    destinationAliasType: p.destinationAliasType,
    correlationID,
    sourceAccountId: p.sourceAccountId,
    ...(p.pixKeyEndToEndId ? { pixKeyEndToEndId: p.pixKeyEndToEndId } : {}),
    ...(p.comment ? { comment: p.comment } : {}),
  };
}

/** A Pix failure that may have been carried out: left for the resumption, which reads the payment first. */
function inDoubt(err: unknown, what: string): never {
  if (err instanceof ApprovalInDoubtError) throw err;
  throw new ApprovalInDoubtError(`${what}: no clear answer (${err instanceof Error ? err.message : String(err)})`);
}

/** The payment as the service has it now; undefined when it does not (404: not created yet). */
async function readPayment(run: ApprovalRun): Promise<PaymentDetail | undefined> {
  try {
    return await run.deps.pix.getPayment(run.deps.mainAppId, run.record.id);
  } catch (err) {
    if (err instanceof PixApiError && err.notFound) return undefined;
    throw err;
  }
}

/**
 * A refusal of the service's: nothing sent, the day no longer counts it (its record `failed` with the
 * service's words, its end already told by the approval's failure), and the approval fails with its text.
 */
async function refused(run: ApprovalRun, err: PixApiError, text: (apiText: string) => string): Promise<ApprovalResult> {
  await endNotSent(run.deps, run.record.id, err.error);
  return { ok: false, problem: text(serviceWords(run.locale, err)) };
}

/** Creates the payment once: `created`, or `exists` (this `correlationID` is there already: the same payment). */
async function create(run: ApprovalRun, p: PayPayload): Promise<'created' | 'exists' | ApprovalResult> {
  await run.intent('create');
  try {
    await run.deps.pix.createPayment(run.deps.mainAppId, paymentInput(run.record.id, p));
  } catch (err) {
    if (refusedWith(err, ALREADY_EXISTS)) return 'exists';
    if (!(err instanceof PixApiError) || mayHaveBeenDone(err)) inDoubt(err, 'the payment’s creation');
    return refused(run, err, messages(run.locale).moneyOut.createRefused);
  }
  await auditStep(run.deps, run.record, 'payment:created');
  return 'created';
}

/** The receiver, as the service says it paid them (else as the key check found them), masked. */
function receiverParts(run: ApprovalRun, p: PayPayload, detail: PaymentDetail | undefined) {
  const m = messages(run.locale).moneyOut;
  const d = detail?.destination;
  const checked = p.receiver.verified ? p.receiver : undefined;
  const name = d?.name ?? checked?.name;
  const taxId = d?.taxID ?? checked?.taxId;
  const bank = d?.bank ?? checked?.bank;
  return {
    name: name ? escapeClipped(name, 200) : m.unknownPart,
    taxId: taxId ? `\`${escapeClipped(maskTaxId(taxId), 40)}\`` : m.unknownPart,
    bank: bank ? escapeClipped(bank, 200) : m.unknownPart,
  };
}

/** Recorded as sent (once), the day still counting it; the thread gets the receiver and the `endToEndId`. */
async function sent(run: ApprovalRun, p: PayPayload, detail: PaymentDetail | undefined, statusRead?: string): Promise<ApprovalResult> {
  const endToEndId = detail?.transaction?.endToEndId;
  const record = await moveMoneyOut(run.deps, run.record.id, (current) =>
    current && (current.stage === 'sending' || current.stage === 'short')
      ? {
          ...current,
          stage: 'sent',
          sentAt: new Date().toISOString(),
          ...(endToEndId ? { endToEndId } : {}),
          ...(statusRead ? { statusRead } : {}),
        }
      : undefined,
  );
  run.deps.logger.info({ approval: run.record.id, stage: record?.stage, statusRead }, 'payment sent');
  await auditStep(
    run.deps,
    run.record,
    'payment:sent',
    endToEndId ? `endToEndId ${idWord(endToEndId)}` : statusRead && `read ${statusRead}`,
  );
  if (!statusRead) {
    const text = messages(run.locale).moneyOut.sentThread({
      ...receiverParts(run, p, detail),
      endToEndId: endToEndId ? `\`${escapeClipped(endToEndId, 100)}\`` : messages(run.locale).moneyOut.unknownPart,
    });
    await run.inThread(plain(text), `sent-${record?.retries ?? 0}`);
  }
  return { ok: true };
}

/** Approve answered "not enough balance": nothing sent, the day released, the balance read for the root, `payment_retry` offered. */
async function short(run: ApprovalRun, p: PayPayload): Promise<ApprovalResult> {
  const { deps } = run;
  const balance = await balanceNow(deps, run.record.id, p.sourceAccountId);
  const record = await moveMoneyOut(deps, run.record.id, (current) =>
    current?.stage === 'sending' ? { ...current, stage: 'short', ...(balance ? { balance } : {}) } : undefined,
  );
  if (record) await releaseDay(deps, record);
  deps.logger.info({ approval: run.record.id }, 'payment approved but not sent: not enough balance');
  await auditStep(deps, run.record, 'payment:short');
  const text = messages(run.locale).moneyOut.shortThread({
    available: balance ? formatCents(balance.available, run.locale) : messages(run.locale).moneyOut.unknownPart,
  });
  await run.inThread(plain(text), `short-${record?.retries ?? 0}`);
  return { ok: true };
}

/** Approves the created payment, once. */
async function approve(run: ApprovalRun, p: PayPayload): Promise<ApprovalResult> {
  await run.intent('approve');
  let detail: PaymentDetail;
  try {
    detail = await run.deps.pix.approvePayment(run.deps.mainAppId, run.record.id);
  } catch (err) {
    if (refusedWith(err, NOT_ENOUGH_BALANCE)) return short(run, p);
    if (!(err instanceof PixApiError) || mayHaveBeenDone(err)) inDoubt(err, 'the payment’s approval');
    return refused(run, err, messages(run.locale).moneyOut.approveRefused);
  }
  return sent(run, p, detail);
}

/**
 * A payment the service has (created by an earlier run, or found "already existing"): approved only
 * while it is CREATED; in any other status it is not approved again, and the root says what was read
 * (`mine`: this app's own approval was the last call made, so it is simply sent).
 */
async function fromRead(run: ApprovalRun, p: PayPayload, read: PaymentDetail, mine: boolean): Promise<ApprovalResult> {
  const status = read.payment.status;
  if (status === 'CREATED') return approve(run, p);
  return sent(run, p, read, mine ? undefined : status);
}

/** The payment's write path, at the approval that completes it: the day's limit was reserved when it was approved. */
export async function sendPayment(run: ApprovalRun, p: PayPayload): Promise<ApprovalResult> {
  const started = await startSending(run, { kind: 'pay', accountId: p.sourceAccountId, value: p.value });
  // Already past `sending` (the run ended, and only its approval record was not written): nothing more.
  if (started && started.stage !== 'sending') return { ok: true };
  const created = await create(run, p);
  if (typeof created !== 'string') return created;
  if (created === 'created') return approve(run, p);
  const read = await readPayment(run).catch((err: unknown) => inDoubt(err, 'the read of an existing payment'));
  // "Already exists", then not found (removed meanwhile): not created, as far as the service says; the resumption reads again.
  if (!read) throw new ApprovalInDoubtError('the payment said to exist was not found');
  return fromRead(run, p, read, false);
}

/**
 * After a crash (or a call with no answer): the payment read first. Not there (404), it was not
 * created: created now, with the same `correlationID`. There and CREATED: approved. Otherwise not
 * approved again.
 */
export async function resumePayment(run: ApprovalRun, p: PayPayload, intent: ApprovalIntent | undefined): Promise<ApprovalResult> {
  const started = await startSending(run, { kind: 'pay', accountId: p.sourceAccountId, value: p.value });
  if (started && started.stage !== 'sending') return { ok: true };
  if (intent?.step !== 'create' && intent?.step !== 'approve') return sendPayment(run, p);
  const read = await readPayment(run);
  if (!read) return sendPayment(run, p);
  return fromRead(run, p, read, intent.step === 'approve');
}
