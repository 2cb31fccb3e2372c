import { fail } from './http';
import { giveBack, PAID_REFUND } from './lookups';
import { removedEvent, settledEvent } from './payment-events';
import type { Payment, PaymentFailure, SandboxState } from './state';
import type { SandboxWebhooks } from './webhooks';

/**
 * A payment's life after its creation: approved (the money leaves the source account), then, after the
 * configured delay, confirmed or failed (the money given back), each end announced by a signed webhook;
 * or, while only created, removed (as the service's web app does).
 */

/** Why a payment fails (pix-money-out.md §2), with the description the sandbox gives when none is chosen. */
export const FAILURE_DESCRIPTIONS = {
  ALIAS_LIMIT_ERROR: 'Limite de consultas de chaves Pix atingido',
  PAY_PIX_KEY_ERROR: 'Não foi possível realizar o pagamento para a chave Pix',
  PIX_KEY_INFO_ERROR: 'Erro ao consultar a chave Pix',
  PIX_KEY_INFO_NOT_FOUND: 'Chave Pix não encontrada',
  INVALID_PIX_KEY: 'Chave Pix inválida',
  REACH_TRANSFER_LIMIT: 'Limite de transferência Pix atingido',
  NOT_ENOUGH_BALANCE: 'Saldo insuficiente',
  ENTRY_ASSOCIATED_WITH_RESTRICTED_ACCOUNT_OR_USER: 'Chave Pix associada a conta ou usuário com restrição',
} as const;
type FailureCode = keyof typeof FAILURE_DESCRIPTIONS;
export const FAILURE_CODES = Object.keys(FAILURE_DESCRIPTIONS) as [FailureCode, ...FailureCode[]];

/** The service's text (pix-money-out.md §1). */
const NOT_ENOUGH_BALANCE = 'Você não possui saldo o suficiente para realizar esse pagamento';

/** The failure the controls chose for this payment, if any: a rule for its key, else the next-payment one. */
function chosenFailure(state: SandboxState, payment: Payment): PaymentFailure | undefined {
  const outcomes = state.paymentOutcomes;
  const forKey = outcomes.failByKey.get(payment.destinationAlias);
  if (forKey) return { ...forKey };
  const next = outcomes.failNext;
  if (!next) return undefined;
  next.count--;
  if (next.count <= 0) outcomes.failNext = undefined;
  return { ...next.failure };
}

/** Sends a created payment: 400 when it is not CREATED or its account lacks the money (it then stays CREATED). */
export function approvePayment(state: SandboxState, webhooks: SandboxWebhooks, payment: Payment): void {
  if (payment.status !== 'CREATED') throw fail(400, `Payment cannot be approved: its status is ${payment.status}`);
  const account = state.accounts.get(payment.sourceAccountId);
  if (!account) throw fail(404, 'Account not found');
  if (account.balance.available < payment.value) throw fail(400, NOT_ENOUGH_BALANCE);

  const now = state.clock.date();
  payment.transaction = state.addTransaction(account, 'DEBIT', payment.value, `Pix payment to ${payment.receiver.name}`, now);
  payment.status = 'APPROVED';
  payment.updatedAt = now.toISOString();
  payment.outcome = chosenFailure(state, payment);
  const company = state.companies.get(payment.companyId);
  // Every payment's key was looked up (by a check, or by the creation).
  if (company) giveBack(state, company, PAID_REFUND);
  state.clock.at(now.getTime() + state.paymentOutcomes.confirmDelayMs, () => settle(state, webhooks, payment));
}

function settle(state: SandboxState, webhooks: SandboxWebhooks, payment: Payment): void {
  if (payment.status !== 'APPROVED') return;
  const now = state.clock.date();
  const failure = payment.outcome;
  if (failure) {
    const account = state.accounts.get(payment.sourceAccountId);
    if (account) state.addTransaction(account, 'CREDIT', payment.value, `Pix payment returned (${failure.code})`, now);
    payment.status = 'FAILED';
    payment.error = failure;
  } else {
    payment.status = 'CONFIRMED';
  }
  payment.updatedAt = now.toISOString();
  void webhooks.deliver(settledEvent(payment));
}

/** What the service's web app does to a payment nobody approved: it is gone, and its `correlationID` free. */
export function removePayment(state: SandboxState, webhooks: SandboxWebhooks, payment: Payment): void {
  if (payment.status !== 'CREATED') throw fail(409, `Only a created payment can be removed: its status is ${payment.status}`);
  state.payments.delete(payment.id);
  void webhooks.deliver(removedEvent(payment));
}
