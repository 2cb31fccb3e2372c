import type { Payment } from './state';
import { paymentTransactionView } from './views';

/**
 * The payment webhooks in the shapes the service publishes (pix-money-out.md §5): a settled payment
 * without the receiver's details, and a removed one by its `correlationID` alone.
 */

export function settledEvent(payment: Payment): Record<string, unknown> {
  const kind = payment.status === 'CONFIRMED' ? 'MOVEMENT_CONFIRMED' : 'MOVEMENT_FAILED';
  return {
    event: `OPENPIX:${kind}`,
    payment: {
      value: payment.value,
      status: payment.status,
      destinationAlias: payment.destinationAlias,
      comment: payment.comment,
      correlationID: payment.correlationID,
    },
    ...(payment.transaction ? { transaction: paymentTransactionView(payment.transaction) } : {}),
    ...(payment.error ? { error: { ...payment.error } } : {}),
  };
}

export function removedEvent(payment: Payment): Record<string, unknown> {
  return { event: 'OPENPIX:MOVEMENT_REMOVED', payment: { correlationID: payment.correlationID } };
}
