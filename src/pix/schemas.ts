import { z } from 'zod';

// Every object is loose: the interface grows by additive changes (section 9), and fields it does not
// show must pass through untouched rather than fail validation.

/**
 * Identifiers the API issues (accounts, requests, subscriptions, disputes, transactions): object ids in
 * practice (not shown in general), and never path syntax such as `.` or `..`.
 */
export const PixIdSchema = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const PixFileSchema = z.looseObject({
  id: z.string(),
  purpose: z.string().optional(),
  fileName: z.string().optional(),
  contentType: z.string().optional(),
  size: z.number().optional(),
  url: z.string().optional(),
  urlExpiresAt: z.string().optional(),
  createdAt: z.string().optional(),
  correlationID: z.string().optional(),
});
export type PixFile = z.infer<typeof PixFileSchema>;
export const FileUploadResponseSchema = z.looseObject({ file: PixFileSchema });

/** The limits object: known fields are typed; the ownership fields are read, never assumed. */
export const LimitsSchema = z.looseObject({
  pixDayLimit: z.number().int(),
  pixNightLimit: z.number().int(),
});
export type Limits = z.infer<typeof LimitsSchema>;
export const LimitsResponseSchema = z.looseObject({ limits: LimitsSchema });

export const LimitRequestStatusSchema = z.enum(['IN_REVIEW', 'APPROVED', 'REJECTED']);
export type LimitRequestStatus = z.infer<typeof LimitRequestStatusSchema>;
/** The statuses that end a request's review. */
export const DecisionStatusSchema = LimitRequestStatusSchema.exclude(['IN_REVIEW']);
export type DecisionStatus = z.infer<typeof DecisionStatusSchema>;
export const LimitRequestSchema = z.looseObject({
  id: z.string(),
  companyBankAccountId: z.string(),
  // A status this version does not know stays readable, and is simply not a decision.
  status: z.union([LimitRequestStatusSchema, z.string()]),
  // null is read as absent: "not shown" leaves room for either form.
  requestedLimits: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? undefined)
    .optional(),
  approvedLimits: z
    .record(z.string(), z.unknown())
    .nullish()
    .transform((v) => v ?? undefined)
    .optional(),
  documents: z.array(z.looseObject({ fileName: z.string().optional(), contentType: z.string().optional() })).optional(),
  description: z.string().optional(),
  createdAt: z.string().optional(),
  updatedAt: z.string().optional(),
});
export type LimitRequest = z.infer<typeof LimitRequestSchema>;
export const LimitRequestResponseSchema = z.looseObject({ limitRequest: LimitRequestSchema });

/** The list's shape is not shown: accept the array under any of the names it plausibly has. */
export const LimitRequestListResponseSchema = z
  .union([
    z.array(LimitRequestSchema),
    z.looseObject({ limitRequests: z.array(LimitRequestSchema) }),
    z.looseObject({ items: z.array(LimitRequestSchema) }),
    z.looseObject({ data: z.array(LimitRequestSchema) }),
  ])
  .transform((v) => {
    if (Array.isArray(v)) return { items: v };
    const items = 'limitRequests' in v ? v.limitRequests : 'items' in v ? v.items : v.data;
    const total = typeof v.total === 'number' ? v.total : undefined;
    return { items: items as LimitRequest[], total };
  });

/** In cents (the service's field conventions); a value that is not a whole number is kept as sent, to be shown so. */
export const BalanceSchema = z.looseObject({
  total: z.number(),
  blocked: z.number(),
  available: z.number(),
});

export const PixKeyWithdrawSchema = z.looseObject({ pixKey: z.string(), type: z.string() });

export const AccountSchema = z.looseObject({
  accountId: z.string(),
  taxId: z.string().optional(),
  isDefault: z.boolean().optional(),
  balance: BalanceSchema.optional(),
  pixKeyWithdraw: PixKeyWithdrawSchema.nullable().optional(),
  withdrawBlocked: z.boolean().optional(),
});
export type Account = z.infer<typeof AccountSchema>;
export const AccountResponseSchema = z.looseObject({ account: AccountSchema });

/** Full shape not shown: a bare array, or an array under `accounts`/`items`/`data`. */
export const AccountListResponseSchema = z
  .union([
    z.array(AccountSchema),
    z.looseObject({ accounts: z.array(AccountSchema) }),
    z.looseObject({ items: z.array(AccountSchema) }),
    z.looseObject({ data: z.array(AccountSchema) }),
  ])
  .transform((v): Account[] => {
    if (Array.isArray(v)) return v;
    return ('accounts' in v ? v.accounts : 'items' in v ? v.items : v.data) as Account[];
  });

export const ApplicationSchema = z.looseObject({
  name: z.string().optional(),
  isActive: z.boolean().optional(),
  type: z.string().optional(),
  clientId: z.string().optional(),
  clientSecret: z.string().optional(),
  appID: z.string().optional(),
  companyBankAccount: z.string().optional(),
});
export type Application = z.infer<typeof ApplicationSchema>;
export const ApplicationResponseSchema = z.looseObject({ application: ApplicationSchema });

export const PixKeySchema = z.looseObject({ key: z.string(), type: z.string() });
export type PixKey = z.infer<typeof PixKeySchema>;
export const PixKeyResponseSchema = z.looseObject({ pixKey: PixKeySchema });
export const PixKeyListResponseSchema = z.looseObject({
  pixKeys: z.array(PixKeySchema),
  account: AccountSchema.optional(),
});

/** Withdraw-key answers are "the account data": either `{ account }` or the account itself. */
export const WithdrawKeyResponseSchema = z
  .union([z.looseObject({ account: AccountSchema }), AccountSchema])
  .transform((v): Account => ('account' in v && typeof v.account === 'object' ? (v.account as Account) : (v as Account)));

/** Shapes not shown: kept as JSON for the caller to present tolerantly. */
export const UnknownJsonSchema = z.unknown();

// Money out (pix-money-out.md): payments, withdrawals, key checks, look-up tokens. Shapes beyond the
// fields the bot reads are kept loose: the service's own documents differ on some (marked *unclear*).

/** A payment's status as the service sends it: `CREATED`, `CONFIRMED`, `FAILED`, and others (see `paymentStage`). */
export const PaymentSchema = z.looseObject({
  value: z.number().optional(),
  status: z.string(),
  correlationID: z.string().optional(),
  destinationAlias: z.string().optional(),
  destinationAliasType: z.string().optional(),
  comment: z.string().nullish(),
  sourceAccountId: z.string().nullish(),
  createdAt: z.string().optional(),
  error: z.looseObject({ code: z.string().optional(), description: z.string().optional() }).nullish(),
});
export type Payment = z.infer<typeof PaymentSchema>;

/** `value` is typed a string in the reference for withdrawals (*unclear*): read both. */
const CentsOrText = z.union([z.number(), z.string()]).optional();

export const PaymentTransactionSchema = z.looseObject({
  value: CentsOrText,
  endToEndId: z.string().optional(),
  time: z.string().optional(),
});
export const PaymentDestinationSchema = z.looseObject({
  name: z.string().optional(),
  taxID: z.string().optional(),
  pixKey: z.string().optional(),
  bank: z.string().optional(),
  branch: z.string().optional(),
  account: z.string().optional(),
});
export type PaymentDestination = z.infer<typeof PaymentDestinationSchema>;

export const PaymentResponseSchema = z.looseObject({ payment: PaymentSchema });
/** An approval's and a read's answer: the transaction and destination once the money was sent. */
export const PaymentDetailSchema = z.looseObject({
  payment: PaymentSchema,
  transaction: PaymentTransactionSchema.nullish(),
  destination: PaymentDestinationSchema.nullish(),
});
export type PaymentDetail = z.infer<typeof PaymentDetailSchema>;

export const PaymentListResponseSchema = z.looseObject({
  payments: z.array(PaymentDetailSchema),
  pageInfo: z
    .looseObject({
      skip: z.number().optional(),
      limit: z.number().optional(),
      hasPreviousPage: z.boolean().optional(),
      hasNextPage: z.boolean().optional(),
    })
    .optional(),
});

export const WithdrawResponseSchema = z.looseObject({
  withdraw: z.looseObject({
    account: AccountSchema.optional(),
    transaction: PaymentTransactionSchema.optional(),
  }),
});
export type WithdrawResult = z.infer<typeof WithdrawResponseSchema>['withdraw'];

export const PixKeyCheckSchema = z.looseObject({
  pixKey: z.string().optional(),
  type: z.string().optional(),
  pixKeyEndToEndId: z.string().optional(),
  owner: z
    .looseObject({
      name: z.string().optional(),
      taxID: z.string().optional(),
      psp: z.string().optional(),
      branch: z.string().optional(),
      account: z.string().optional(),
    })
    .optional(),
});
export type PixKeyCheckResult = z.infer<typeof PixKeyCheckSchema>;

/** `nextRefresh` is a string of a form not shown (*unclear*): an ISO 8601 time or epoch milliseconds. */
export const LookupTokensSchema = z.looseObject({
  tokens: z.number(),
  maxTokens: z.number().optional(),
  nextRefresh: z.union([z.string(), z.number()]).nullish(),
  tokensAfterRefresh: z.number().optional(),
  refreshRate: z.number().optional(),
});
export type LookupTokens = z.infer<typeof LookupTokensSchema>;
