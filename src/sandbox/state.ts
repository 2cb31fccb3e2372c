// The one schema the sandbox shares with the bot: the statuses of the interface.
import type { LimitRequestStatus } from '../pix/schemas';
import { SandboxClock } from './clock';
import { IdSource } from './ids';
import { defaultLimits, type Limits, type LimitValues } from './limits-object';
import { ALL_SCOPES, type Scope } from './scopes';

/** The service's defaults: 500 look-up tokens at most, 20 more a minute. */
export const DEFAULT_MAX_TOKENS = 500;
export const DEFAULT_REFRESH_RATE = 20;
/** "A short delay" between a payment's approval and its confirmation. */
export const DEFAULT_CONFIRM_DELAY_MS = 1_500;

/** The in-memory model of the sandbox: what each company owns, and how new things are created. */

/** `CHECK_PIX_KEY` (the key check) is on for every company unless turned off; the others are off. */
export const FEATURES = ['DISPUTE_EVIDENCE_FILE_ID', 'MASTER_APP_READ_ANY_ACCOUNT', 'CHECK_PIX_KEY'] as const;
export type Feature = (typeof FEATURES)[number];

export const FILE_PURPOSES = ['ACCOUNT_LIMIT_REQUEST', 'DISPUTE_EVIDENCE'] as const;
export type FilePurpose = (typeof FILE_PURPOSES)[number];

/** Key types as `pixKeyWithdraw`, the DICT and a payment's `destinationAliasType` name them (a random key is `RANDOM` here). */
export const WITHDRAW_KEY_TYPES = ['CPF', 'CNPJ', 'EMAIL', 'PHONE', 'RANDOM'] as const;
export type WithdrawKeyType = (typeof WITHDRAW_KEY_TYPES)[number];

export const PIX_KEY_TYPES = ['EMAIL', 'PHONE', 'CPF', 'CNPJ', 'EVP'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export interface Company {
  id: string;
  name: string;
  taxId: string;
  features: Set<Feature>;
  /** Withdraw keys registered by the company (POST), selectable on its accounts (PUT). */
  withdrawKeys: Map<string, WithdrawKeyType>;
  /** The company's DICT look-up tokens, shared by all its AppIDs. */
  lookups: LookupBucket;
}

/** A token bucket, refilled `refreshRate` tokens every minute since `refilledAt`, up to `maxTokens`. */
export interface LookupBucket {
  tokens: number;
  maxTokens: number;
  refreshRate: number;
  /** Sandbox time (epoch ms) of the latest refill; the next one is a minute later. */
  refilledAt: number;
}

export interface Balance {
  total: number;
  blocked: number;
  available: number;
}

export interface PixKey {
  key: string;
  type: PixKeyType;
}

export interface Account {
  id: string;
  companyId: string;
  taxId: string;
  isDefault: boolean;
  balance: Balance;
  withdrawBlocked: boolean;
  withdrawKeyApiEnabled: boolean;
  pixKeyWithdraw: { pixKey: string; type: WithdrawKeyType } | null;
  limits: Limits;
  pixKeys: PixKey[];
  /** Whether a payment from this account may be created with `autoApprove` (granted by the service on request). */
  autoApprove: boolean;
}

export type ApplicationType = 'API' | 'MASTER';

export interface Application {
  name: string;
  type: ApplicationType;
  isActive: boolean;
  clientId: string;
  clientSecret: string;
  appId: string;
  companyId: string;
  accountId: string;
  scopes: Set<Scope>;
}

export interface StoredFile {
  id: string;
  correlationID: string;
  companyId: string;
  purpose: FilePurpose;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  createdAt: string;
  urlExpiresAt: string;
}

export interface LimitRequest {
  id: string;
  companyId: string;
  companyBankAccountId: string;
  status: LimitRequestStatus;
  requestedLimits: LimitValues;
  approvedLimits?: LimitValues;
  documents: { fileId: string; fileName: string; contentType: string }[];
  description?: string;
  limitRequestReason?: string;
  createdAt: string;
  updatedAt: string;
}

export interface DictEntry {
  type: WithdrawKeyType;
  holderTaxId: string;
  /** A key of an account of the service itself; refused as a withdraw key. */
  serviceAccount: boolean;
  /** Who holds the key and where: what a key check and a payment's destination show. */
  holder: DictHolder;
}

export interface DictHolder {
  name: string;
  /** The holder's bank (its PSP), by name. */
  bank: string;
  branch: string;
  account: string;
}

/** What the service remembers of a DICT look-up: a found key for a while, a missing one for 5 minutes. */
export interface CachedLookup {
  found: boolean;
  /** Sandbox time (epoch ms) until which it is used. */
  until: number;
}

/** A key check, by its `pixKeyEndToEndId`: a payment to that key soon after needs no second look-up. */
export interface KeyCheck {
  companyId: string;
  pixKey: string;
  at: number;
}

export const PAYMENT_TYPES = ['PIX_KEY', 'QR_CODE', 'MANUAL', 'BOLETO'] as const;

/** `APPROVED` between the approval and the end (the service's example); `CONFIRMED` and `FAILED` are final. */
export type PaymentStatus = 'CREATED' | 'APPROVED' | 'CONFIRMED' | 'FAILED';

export interface PaymentFailure {
  code: string;
  description: string;
}

export interface Payment {
  id: string;
  companyId: string;
  sourceAccountId: string;
  /** Cents. */
  value: number;
  destinationAlias: string;
  destinationAliasType: WithdrawKeyType;
  correlationID: string;
  comment?: string;
  metadata?: Record<string, unknown>;
  status: PaymentStatus;
  createdAt: string;
  updatedAt: string;
  /** The key's holder as the DICT gave it when the payment was created. */
  receiver: DictHolder & { taxID: string };
  /** The debit of the source account, once approved. */
  transaction?: Transaction;
  /** Once approved: how it will end (undefined: confirmed). */
  outcome?: PaymentFailure;
  /** Once failed. */
  error?: PaymentFailure;
}

/** How approved payments end, as the controls set it. */
export interface PaymentOutcomes {
  /** How long after its approval a payment is confirmed or failed. */
  confirmDelayMs: number;
  /** The next `count` payments approved fail with this. */
  failNext: { failure: PaymentFailure; count: number } | undefined;
  /** Every payment approved to one of these keys fails with its failure. */
  failByKey: Map<string, PaymentFailure>;
}

export interface Installment {
  number: number;
  month: number;
  year: number;
  dueDate: string;
  value: number;
  chargeId: string;
  issuedAt: string;
}

export interface Subscription {
  id: string;
  companyId: string;
  type: 'RECURRENT';
  chargeType: 'BOLETO';
  customerName: string;
  value: number;
  startMonth: number;
  startYear: number;
  /** Issued installments by `YYYY-MM`, so a repeated booklet never issues one twice. */
  installments: Map<string, Installment>;
}

export interface Evidence {
  id: string;
  fileId?: string;
  url?: string;
  fileName?: string;
  contentType?: string;
  createdAt: string;
}

export interface Dispute {
  id: string;
  companyId: string;
  status: string;
  evidences: Evidence[];
  /** Disputes opened through `POST /sandbox/disputes` (whose events go to the webhook target) have these. */
  endToEndId?: string;
  type?: 'MED' | 'CHARGEBACK';
  /** Cents. */
  value?: number;
  reason?: string;
  customer?: { name?: string; email?: string; phone?: string; taxID?: string };
  accountId?: string;
  createdAt?: string;
}

export interface Transaction {
  id: string;
  /** Id of the statement entry this transaction produced. */
  entryId: string;
  accountId: string;
  time: string;
  description: string;
  value: number;
  type: 'CREDIT' | 'DEBIT';
  endToEndId: string;
  /** Running balance of the account after this transaction. */
  balance: number;
}

export class SandboxState {
  readonly ids: IdSource;
  readonly companies = new Map<string, Company>();
  readonly accounts = new Map<string, Account>();
  /** By AppID, the value of the Authorization header. */
  readonly applications = new Map<string, Application>();
  readonly files = new Map<string, StoredFile>();
  /** In creation order. */
  readonly limitRequests: LimitRequest[] = [];
  /** The central bank's Pix key directory, as far as the sandbox knows it. */
  readonly dict = new Map<string, DictEntry>();
  readonly subscriptions = new Map<string, Subscription>();
  readonly disputes = new Map<string, Dispute>();
  readonly transactions = new Map<string, Transaction>();
  /** By id, in creation order; a removed payment is gone. */
  readonly payments = new Map<string, Payment>();
  /** The service's cache of DICT look-ups, by key. */
  readonly dictCache = new Map<string, CachedLookup>();
  /** The next this many DICT look-ups are answered 429 by the DICT. */
  dictTooManyRequests = 0;
  /** Recent key checks, by `pixKeyEndToEndId`. */
  readonly keyChecks = new Map<string, KeyCheck>();
  readonly paymentOutcomes: PaymentOutcomes = { confirmDelayMs: DEFAULT_CONFIRM_DELAY_MS, failNext: undefined, failByKey: new Map() };

  constructor(
    seed?: string,
    readonly clock = new SandboxClock(),
  ) {
    this.ids = new IdSource(seed);
  }

  createCompany(name: string): Company {
    const company: Company = {
      id: this.ids.objectId(),
      name,
      taxId: this.ids.cnpj(),
      features: new Set(['CHECK_PIX_KEY']),
      withdrawKeys: new Map(),
      lookups: {
        tokens: DEFAULT_MAX_TOKENS,
        maxTokens: DEFAULT_MAX_TOKENS,
        refreshRate: DEFAULT_REFRESH_RATE,
        refilledAt: this.clock.now(),
      },
    };
    this.companies.set(company.id, company);
    return company;
  }

  createAccount(company: Company, isDefault: boolean): Account {
    const account: Account = {
      id: this.ids.objectId(),
      companyId: company.id,
      taxId: company.taxId,
      isDefault,
      balance: { total: 0, blocked: 0, available: 0 },
      withdrawBlocked: false,
      withdrawKeyApiEnabled: false,
      pixKeyWithdraw: null,
      limits: defaultLimits(),
      pixKeys: [],
      autoApprove: false,
    };
    this.accounts.set(account.id, account);
    return account;
  }

  createApplication(account: Account, name: string, type: ApplicationType, scopes: readonly Scope[] = ALL_SCOPES): Application {
    const app: Application = {
      name,
      type,
      isActive: true,
      ...this.ids.credentials(),
      companyId: account.companyId,
      accountId: account.id,
      scopes: new Set(scopes),
    };
    this.applications.set(app.appId, app);
    return app;
  }

  /** Appends a transaction and its statement effect to the account. */
  addTransaction(account: Account, type: Transaction['type'], value: number, description: string, time: Date): Transaction {
    const delta = type === 'CREDIT' ? value : -value;
    account.balance.total += delta;
    account.balance.available += delta;
    const tx: Transaction = {
      id: this.ids.objectId(),
      entryId: this.ids.objectId(),
      accountId: account.id,
      time: time.toISOString(),
      description,
      value,
      type,
      endToEndId: `E${this.ids.hex(16).toUpperCase().slice(0, 31)}`,
      balance: account.balance.total,
    };
    this.transactions.set(tx.id, tx);
    return tx;
  }

  // Lookups filtered by company: another company's resource is simply not found.

  accountOf(companyId: string, accountId: string): Account | undefined {
    const account = this.accounts.get(accountId);
    return account?.companyId === companyId ? account : undefined;
  }

  accountsOf(companyId: string): Account[] {
    return [...this.accounts.values()].filter((a) => a.companyId === companyId);
  }

  fileOf(companyId: string, fileId: string): StoredFile | undefined {
    const file = this.files.get(fileId);
    return file?.companyId === companyId ? file : undefined;
  }

  limitRequestOf(companyId: string, id: string): LimitRequest | undefined {
    return this.limitRequests.find((r) => r.id === id && r.companyId === companyId);
  }

  applicationByClientId(companyId: string, clientId: string): Application | undefined {
    return [...this.applications.values()].find((a) => a.clientId === clientId && a.companyId === companyId);
  }

  subscriptionOf(companyId: string, id: string): Subscription | undefined {
    const subscription = this.subscriptions.get(id);
    return subscription?.companyId === companyId ? subscription : undefined;
  }

  disputeOf(companyId: string, id: string): Dispute | undefined {
    const dispute = this.disputes.get(id);
    return dispute?.companyId === companyId ? dispute : undefined;
  }

  transactionsOf(accountId: string): Transaction[] {
    return [...this.transactions.values()].filter((t) => t.accountId === accountId);
  }

  /** A payment of the company by its id or its `correlationID`. */
  paymentOf(companyId: string, idOrCorrelationID: string): Payment | undefined {
    const byId = this.payments.get(idOrCorrelationID);
    return byId?.companyId === companyId ? byId : this.paymentByCorrelationID(companyId, idOrCorrelationID);
  }

  paymentByCorrelationID(companyId: string, correlationID: string): Payment | undefined {
    return [...this.payments.values()].find((p) => p.companyId === companyId && p.correlationID === correlationID);
  }

  /** The company's payments, newest first. */
  paymentsOf(companyId: string): Payment[] {
    return [...this.payments.values()].filter((p) => p.companyId === companyId).reverse();
  }
}
