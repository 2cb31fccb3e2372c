import { z } from 'zod';
import type { Dispute } from './state';

/** `POST /sandbox/disputes`: everything optional, with realistic defaults. */
export const openDisputeSchema = z.object({
  accountId: z.string().min(1).optional(),
  type: z.enum(['MED', 'CHARGEBACK']).default('MED'),
  /** Cents. */
  value: z.number().int().min(1).max(1_000_000_000_00).default(15_000),
  reason: z.string().trim().min(1).max(300).default('Golpe'),
  customer: z
    .object({
      name: z.string().trim().min(1).max(200).optional(),
      email: z.string().trim().min(3).max(200).optional(),
      phone: z.string().trim().min(3).max(40).optional(),
      taxID: z.string().trim().min(3).max(40).optional(),
    })
    .default({ name: 'Maria Souza', email: 'maria.souza@example.com', phone: '+5511987654321', taxID: '12345678909' }),
  deliver: z.boolean().default(true),
});

export const decideSchema = z.object({
  status: z.enum(['ACCEPTED', 'REJECTED', 'CANCELED']),
  deliver: z.boolean().default(true),
});

export const DECIDED_EVENT = { ACCEPTED: 'DISPUTE_ACCEPTED', REJECTED: 'DISPUTE_REJECTED', CANCELED: 'DISPUTE_CANCELED' } as const;

/**
 * A dispute event as the service sends it (its public examples: `event` as `OPENPIX:KIND`, the dispute
 * with `status`, `endToEndId`, `name`, `email`, `phoneNumber`, `value` in cents, `disputeReason`),
 * plus the dispute's `id`, `type` and `taxID`, which the sandbox knows.
 */
export function disputeEvent(kind: string, d: Dispute): Record<string, unknown> {
  return {
    event: `OPENPIX:${kind}`,
    dispute: {
      id: d.id,
      status: d.status,
      type: d.type,
      endToEndId: d.endToEndId,
      name: d.customer?.name,
      email: d.customer?.email,
      phoneNumber: d.customer?.phone,
      taxID: d.customer?.taxID,
      value: d.value,
      disputeReason: d.reason,
    },
  };
}
