import { z } from 'zod';

// What a payment or a withdraw carries from the maker's form to the approval that sends it
// (pix-money-out.md §1, §3). Amounts are cents.

const PixId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const Cents = z.number().int().positive();

/** The key types a payment names (`RANDOM` where the Pix-key endpoints say `EVP`). */
export const PAYMENT_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;
export const PaymentKeyTypeSchema = z.enum(PAYMENT_KEY_TYPES);
export type PaymentKeyType = z.infer<typeof PaymentKeyTypeSchema>;

/** The receiver as the key check found them; `verified: false` when the company has no key check (403). */
export const ReceiverSchema = z.discriminatedUnion('verified', [
  z.object({
    verified: z.literal(true),
    name: z.string().max(200).optional(),
    taxId: z.string().max(40).optional(),
    bank: z.string().max(200).optional(),
  }),
  z.object({ verified: z.literal(false) }),
]);
export type Receiver = z.infer<typeof ReceiverSchema>;

export const PayPayloadSchema = z.object({
  action: z.literal('pay'),
  sourceAccountId: PixId,
  value: Cents,
  destinationAlias: z.string().min(1).max(100),
  destinationAliasType: PaymentKeyTypeSchema,
  comment: z.string().max(140).optional(),
  /** From the key check made when the form was sent: the payment's creation does not look the key up again. */
  pixKeyEndToEndId: z.string().min(1).max(100).optional(),
  receiver: ReceiverSchema,
});
export type PayPayload = z.infer<typeof PayPayloadSchema>;

export const WithdrawPayloadSchema = z.object({
  action: z.literal('withdraw'),
  accountId: PixId,
  value: Cents,
  /** The account's withdraw key when asked (shown masked on the root). */
  withdrawKey: z.object({ pixKey: z.string().min(1).max(100), type: z.string().min(1).max(10) }),
});
export type WithdrawPayload = z.infer<typeof WithdrawPayloadSchema>;
