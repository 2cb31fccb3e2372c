import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import type { AxiosInstance, AxiosResponse, Method } from 'axios';
import type { z } from 'zod';
import { loadAxios } from '../runtime/load-axios';
import { BudgetWaitAbortedError, type Lane, type PixBudget } from './budget';
import { PixApiError } from './errors';
import { backoffDelay, DEFAULT_RETRY, isRetryableStatus, type RetryPolicy, rateLimitBackoff, retryAfterMs } from './retry';
import {
  AccountListResponseSchema,
  AccountResponseSchema,
  ApplicationResponseSchema,
  FileUploadResponseSchema,
  LimitRequestListResponseSchema,
  LimitRequestResponseSchema,
  LimitsResponseSchema,
  LookupTokensSchema,
  PaymentDetailSchema,
  PaymentListResponseSchema,
  PaymentResponseSchema,
  PixIdSchema,
  PixKeyCheckSchema,
  PixKeyListResponseSchema,
  PixKeyResponseSchema,
  UnknownJsonSchema,
  WithdrawKeyResponseSchema,
  WithdrawResponseSchema,
} from './schemas';

export interface PixClientOptions {
  /** The part before `/api/v1`. */
  baseUrl: string;
  /** Each attempt's whole life, from connecting to the last byte of the answer (not an idle time). */
  timeoutMs: number;
  retry?: RetryPolicy;
  /** A `Retry-After` longer than this is not waited for: the read fails instead of hanging. */
  maxRetryAfterMs?: number;
  onCall?: (event: PixCallEvent) => void;
  sleep?: (ms: number) => Promise<void>;
  /** Every attempt takes its place in this budget first (PIX_RATE_LIMIT, shared by the instances). */
  budget?: PixBudget;
  /** Whose calls these are (default: a person's); see `inLane`. */
  lane?: Lane;
  /** Once aborted, a call still waiting for its place in the budget is given up, never sent. */
  stop?: AbortSignal;
  /**
   * Run before each write (any method but GET) is sent; when it throws, the write is not sent and its
   * error is the call's. The app checks there that its store answers: a write whose outcome could not
   * be recorded is not made.
   */
  beforeWrite?: () => Promise<void>;
}

/** The longest every lane is held back after a 429, whatever its Retry-After says. */
const MAX_HOLD_OFF_MS = 60_000;

/** What a call is about, by the ids its caller gave (a Pix key as given: whoever reads it masks it). */
export interface PixCallSubject {
  account?: string;
  request?: string;
  application?: string;
  pixKey?: string;
  subscription?: string;
  dispute?: string;
  transaction?: string;
  /** A payment's `correlationID`. */
  payment?: string;
}

/** One attempt of one call, as it went: `status` 0 when no answer came (network, time limit). */
export interface PixCallEvent {
  operation: string;
  method: string;
  /** The path as sent (query string aside). */
  path: string;
  /** The path as a pattern (`/api/v1/pix-keys/:key`): what may be shown or counted. */
  route?: string;
  status: number;
  ms: number;
  attempt: number;
  about?: PixCallSubject;
}

/** A payment to a Pix key as created; `autoApprove` is never sent (every payment waits for its approve call). */
export interface PaymentInput {
  value: number;
  destinationAlias: string;
  destinationAliasType: 'CPF' | 'CNPJ' | 'EMAIL' | 'PHONE' | 'RANDOM';
  correlationID: string;
  sourceAccountId?: string;
  pixKeyEndToEndId?: string;
  comment?: string;
}

export type FilePurpose = 'ACCOUNT_LIMIT_REQUEST' | 'DISPUTE_EVIDENCE';

export interface UploadInput {
  /** The file's bytes as a stream: it is piped into the multipart body, never held whole. */
  stream: Readable;
  fileName: string;
  contentType: string;
  /** Byte length, when known, so the body has a Content-Length instead of being chunked. */
  knownLength?: number;
  purpose: FilePurpose;
}

export interface LimitRequestInput {
  companyBankAccountId: string;
  /** Requested limits in integer cents, keyed by the API field name (pixDayLimit, pixNightLimit, …). */
  limits: Record<string, number>;
  documents: Array<{ fileId: string }>;
  description?: string;
  limitRequestReason?: string;
}

interface CallSpec<S extends z.ZodType> {
  operation: string;
  method: Method;
  path: string;
  /** The path's pattern, with no identifier in it (metrics); absent: see `routeOf`. */
  route?: string;
  appId: string;
  schema: S;
  /** Reads are retried on network errors, 5xx and 429; writes never are. */
  idempotent: boolean;
  /** Not sent again even after a 429 (a key check: each try may cost the company look-up tokens). */
  once?: boolean;
  params?: Record<string, string | number | undefined>;
  data?: unknown;
  headers?: Record<string, string | number>;
  binary?: boolean;
  about?: PixCallSubject;
}

/**
 * A path segment from an identifier: only what the API could have issued. Refused before any URL is
 * built, so `.`, `..` or a slash can never move the request to another path.
 */
function idSegment(name: string, value: string): string {
  if (!PixIdSchema.safeParse(value).success) throw new RangeError(`${name} is not an identifier the Pix API issues`);
  return value;
}

/**
 * A Pix key as a path segment: emails, phones, CPF/CNPJ and EVPs have no spaces or control characters,
 * are at most 77 characters, and are never only dots (which a URL would read as `.` or `..`).
 */
function pixKeySegment(value: string): string {
  if (!/^[^\s\p{Cc}]{1,100}$/u.test(value) || /^\.+$/.test(value)) throw new RangeError('pixKey is not a Pix key');
  return encodeURIComponent(value);
}

/** Connection errors that happen before any byte of the request leaves: nothing was done. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

// Loaded at the first upload, like axios (see load-axios.ts).
const loadFormData = () => require('form-data') as typeof import('form-data');

/** One method per endpoint of the Pix interface; every call is made with the AppID it is given. */
export class PixClient {
  private readonly retry: RetryPolicy;
  private readonly maxRetryAfterMs: number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(
    private readonly options: PixClientOptions,
    /** The HTTP client and its connections, shared with the clients `observed` makes from this one. */
    private readonly transport: { http?: AxiosInstance } = {},
  ) {
    this.retry = options.retry ?? DEFAULT_RETRY;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 10_000;
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /**
   * The same client (connections, retries, listener) that also tells `listener` of each call: how
   * one person's action is followed without the client knowing who they are.
   */
  observed(listener: (event: PixCallEvent) => void): PixClient {
    const own = this.options.onCall;
    const onCall = own
      ? (event: PixCallEvent) => {
          own(event);
          listener(event);
        }
      : listener;
    return new PixClient({ ...this.options, onCall }, this.transport);
  }

  /**
   * The same client, its calls queued in `lane` of the budget (the poller's, behind people's); with
   * `stop`, a call still waiting for its place when it aborts fails (not sent) instead of going out.
   */
  inLane(lane: Lane, stop?: AbortSignal): PixClient {
    return new PixClient({ ...this.options, lane, ...(stop ? { stop } : {}) }, this.transport);
  }

  private get http(): AxiosInstance {
    this.transport.http ??= loadAxios().create({
      baseURL: this.options.baseUrl.replace(/\/+$/, ''),
      validateStatus: () => true,
      maxRedirects: 0,
      maxBodyLength: Infinity,
      maxContentLength: 50 * 1024 * 1024,
      httpAgent: new http.Agent({ keepAlive: true, maxSockets: 128 }),
      httpsAgent: new https.Agent({ keepAlive: true, maxSockets: 128 }),
    });
    return this.transport.http;
  }

  // 4.1 Files

  uploadFile(appId: string, input: UploadInput) {
    const FormData = loadFormData();
    const form = new FormData();
    form.append('purpose', input.purpose);
    form.append('file', input.stream, {
      filename: input.fileName,
      contentType: input.contentType,
      ...(input.knownLength !== undefined ? { knownLength: input.knownLength } : {}),
    });
    const headers: Record<string, string | number> = { ...form.getHeaders() };
    if (input.knownLength !== undefined) headers['Content-Length'] = form.getLengthSync();
    return this.call({
      operation: 'uploadFile',
      method: 'POST',
      path: '/api/v1/files',
      route: '/api/v1/files',
      appId,
      data: form,
      headers,
      schema: FileUploadResponseSchema,
      idempotent: false,
    }).then((r) => r.file);
  }

  // 4.2 Limits

  async getLimits(appId: string, accountId: string) {
    return this.call({
      operation: 'getLimits',
      about: { account: accountId },
      method: 'GET',
      path: `/api/v1/limits/${idSegment('accountId', accountId)}`,
      route: '/api/v1/limits/:accountId',
      appId,
      schema: LimitsResponseSchema,
      idempotent: true,
    }).then((r) => r.limits);
  }

  createLimitRequest(appId: string, input: LimitRequestInput) {
    for (const [field, cents] of Object.entries(input.limits)) {
      if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`${field} must be integer cents`);
    }
    return this.call({
      operation: 'createLimitRequest',
      about: { account: input.companyBankAccountId },
      method: 'POST',
      path: '/api/v1/limits/request',
      route: '/api/v1/limits/request',
      appId,
      data: {
        companyBankAccountId: input.companyBankAccountId,
        ...input.limits,
        documents: input.documents.map((d) => ({ fileId: d.fileId })),
        ...(input.description ? { description: input.description } : {}),
        ...(input.limitRequestReason ? { limitRequestReason: input.limitRequestReason } : {}),
      },
      schema: LimitRequestResponseSchema,
      idempotent: false,
    }).then((r) => r.limitRequest);
  }

  async getLimitRequest(appId: string, limitRequestId: string) {
    return this.call({
      operation: 'getLimitRequest',
      about: { request: limitRequestId },
      method: 'GET',
      path: `/api/v1/limits/request/${idSegment('limitRequestId', limitRequestId)}`,
      route: '/api/v1/limits/request/:limitRequestId',
      appId,
      schema: LimitRequestResponseSchema,
      idempotent: true,
    }).then((r) => r.limitRequest);
  }

  listLimitRequests(appId: string, page: { limit: number; skip: number }) {
    if (!Number.isInteger(page.limit) || page.limit < 1 || page.limit > 100) throw new RangeError('limit must be 1 to 100');
    if (!Number.isInteger(page.skip) || page.skip < 0) throw new RangeError('skip must be 0 or more');
    return this.call({
      operation: 'listLimitRequests',
      method: 'GET',
      path: '/api/v1/limits/request',
      route: '/api/v1/limits/request',
      appId,
      params: { limit: page.limit, skip: page.skip },
      schema: LimitRequestListResponseSchema,
      idempotent: true,
    });
  }

  // 4.3 Accounts and applications

  createAccount(masterAppId: string) {
    return this.call({
      operation: 'createAccount',
      method: 'POST',
      path: '/api/v1/account',
      route: '/api/v1/account',
      appId: masterAppId,
      schema: AccountResponseSchema,
      idempotent: false,
    }).then((r) => r.account);
  }

  listAccounts(appId: string) {
    return this.call({
      operation: 'listAccounts',
      method: 'GET',
      path: '/api/v1/account',
      route: '/api/v1/account',
      appId,
      schema: AccountListResponseSchema,
      idempotent: true,
    });
  }

  async getAccount(appId: string, accountId: string) {
    return this.call({
      operation: 'getAccount',
      about: { account: accountId },
      method: 'GET',
      path: `/api/v1/account/${idSegment('accountId', accountId)}`,
      route: '/api/v1/account/:accountId',
      appId,
      schema: AccountResponseSchema,
      idempotent: true,
    }).then((r) => r.account);
  }

  createApplication(appId: string, input: { accountId: string; name: string }) {
    return this.call({
      operation: 'createApplication',
      about: { account: input.accountId },
      method: 'POST',
      path: '/api/v1/application',
      route: '/api/v1/application',
      appId,
      data: { accountId: input.accountId, application: { name: input.name, type: 'API' } },
      schema: ApplicationResponseSchema,
      idempotent: false,
    }).then((r) => r.application);
  }

  listScopes(appId: string) {
    return this.call({
      operation: 'listScopes',
      method: 'GET',
      path: '/api/v1/application/scopes',
      route: '/api/v1/application/scopes',
      appId,
      schema: UnknownJsonSchema,
      idempotent: true,
    });
  }

  rotateSecret(masterAppId: string, clientId: string) {
    return this.call({
      operation: 'rotateSecret',
      about: { application: clientId },
      method: 'POST',
      path: '/api/v1/application/rotate-secret',
      route: '/api/v1/application/rotate-secret',
      appId: masterAppId,
      data: { clientId },
      schema: UnknownJsonSchema,
      idempotent: false,
    });
  }

  // 4.4 Pix keys (the AppID of the account that owns the keys)

  createPixKey(appId: string, input: { pixKey: string; type: string }) {
    return this.call({
      operation: 'createPixKey',
      about: { pixKey: input.pixKey },
      method: 'POST',
      path: '/api/v1/pix-keys',
      route: '/api/v1/pix-keys',
      appId,
      data: { pixKey: input.pixKey, type: input.type },
      schema: PixKeyResponseSchema,
      idempotent: false,
    }).then((r) => r.pixKey);
  }

  listPixKeys(appId: string) {
    return this.call({
      operation: 'listPixKeys',
      method: 'GET',
      path: '/api/v1/pix-keys',
      route: '/api/v1/pix-keys',
      appId,
      schema: PixKeyListResponseSchema,
      idempotent: true,
    });
  }

  async deletePixKey(appId: string, pixKey: string): Promise<void> {
    await this.call({
      operation: 'deletePixKey',
      about: { pixKey },
      method: 'DELETE',
      path: `/api/v1/pix-keys/${pixKeySegment(pixKey)}`,
      route: '/api/v1/pix-keys/:key',
      appId,
      schema: UnknownJsonSchema,
      idempotent: false,
    });
  }

  // 4.5 Withdraw key

  registerWithdrawKey(appId: string, pixKey: string) {
    return this.call({
      operation: 'registerWithdrawKey',
      about: { pixKey },
      method: 'POST',
      path: '/api/v1/pix-keys/withdraw',
      route: '/api/v1/pix-keys/withdraw',
      appId,
      data: { pixKey },
      schema: WithdrawKeyResponseSchema,
      idempotent: false,
    });
  }

  selectWithdrawKey(appId: string, pixKey: string) {
    return this.call({
      operation: 'selectWithdrawKey',
      about: { pixKey },
      method: 'PUT',
      path: '/api/v1/pix-keys/withdraw',
      route: '/api/v1/pix-keys/withdraw',
      appId,
      data: { pixKey },
      schema: WithdrawKeyResponseSchema,
      idempotent: false,
    });
  }

  // 4.6 Other operations

  /** The booklet's PDF bytes. Safe to repeat: the service issues each installment once. */
  async getPaymentBook(appId: string, subscriptionId: string, period: { month: number; year: number }): Promise<Buffer> {
    const pdf = await this.call({
      operation: 'getPaymentBook',
      about: { subscription: subscriptionId },
      method: 'GET',
      path: `/api/v1/subscriptions/${idSegment('subscriptionId', subscriptionId)}/payment-book`,
      route: '/api/v1/subscriptions/:subscriptionId/payment-book',
      appId,
      params: { month: period.month, year: period.year },
      headers: { Accept: 'application/pdf' },
      schema: UnknownJsonSchema,
      idempotent: true,
      binary: true,
    });
    return pdf as Buffer;
  }

  async addDisputeEvidence(appId: string, disputeId: string, body: { documents: Array<{ fileId: string }>; [k: string]: unknown }) {
    return this.call({
      operation: 'addDisputeEvidence',
      about: { dispute: disputeId },
      method: 'POST',
      path: `/api/v1/dispute/${idSegment('disputeId', disputeId)}/evidence`,
      route: '/api/v1/dispute/:disputeId/evidence',
      appId,
      data: body,
      schema: UnknownJsonSchema,
      idempotent: false,
    });
  }

  getStatement(appId: string, options: { companyBankAccount?: string } = {}) {
    return this.call({
      operation: 'getStatement',
      about: { account: options.companyBankAccount },
      method: 'GET',
      path: '/api/v1/statement',
      route: '/api/v1/statement',
      appId,
      params: { companyBankAccount: options.companyBankAccount },
      schema: UnknownJsonSchema,
      idempotent: true,
    });
  }

  async getTransaction(appId: string, transactionId: string, options: { companyBankAccount?: string } = {}) {
    return this.call({
      operation: 'getTransaction',
      about: { transaction: transactionId, account: options.companyBankAccount },
      method: 'GET',
      path: `/api/v1/transaction/${idSegment('transactionId', transactionId)}`,
      route: '/api/v1/transaction/:transactionId',
      appId,
      params: { companyBankAccount: options.companyBankAccount },
      schema: UnknownJsonSchema,
      idempotent: true,
    });
  }

  // Money out (pix-money-out.md)

  /** Creates a payment to a Pix key (status CREATED: nothing sent yet). `correlationID` is its idempotency key. */
  createPayment(appId: string, input: PaymentInput) {
    return this.call({
      operation: 'createPayment',
      about: { account: input.sourceAccountId, pixKey: input.destinationAlias, payment: input.correlationID },
      method: 'POST',
      path: '/api/v1/payment',
      route: '/api/v1/payment',
      appId,
      data: { type: 'PIX_KEY', ...input },
      schema: PaymentResponseSchema,
      idempotent: false,
    }).then((r) => r.payment);
  }

  /** Approves a created payment: the money is sent. */
  approvePayment(appId: string, correlationID: string) {
    return this.call({
      operation: 'approvePayment',
      about: { payment: correlationID },
      method: 'POST',
      path: '/api/v1/payment/approve',
      route: '/api/v1/payment/approve',
      appId,
      data: { correlationID },
      schema: PaymentDetailSchema,
      idempotent: false,
    });
  }

  /** One payment by its id or its `correlationID`. */
  getPayment(appId: string, idOrCorrelationID: string) {
    return this.call({
      operation: 'getPayment',
      about: { payment: idOrCorrelationID },
      method: 'GET',
      path: `/api/v1/payment/${idSegment('payment', idOrCorrelationID)}`,
      route: '/api/v1/payment/:id',
      appId,
      schema: PaymentDetailSchema,
      idempotent: true,
    });
  }

  listPayments(appId: string, page: { limit: number; skip: number }) {
    return this.call({
      operation: 'listPayments',
      method: 'GET',
      path: '/api/v1/payment',
      route: '/api/v1/payment',
      appId,
      params: { limit: page.limit, skip: page.skip },
      schema: PaymentListResponseSchema,
      idempotent: true,
    });
  }

  /** Sends `value` cents to the account's withdraw key. No idempotency key: never sent twice by this client. */
  withdraw(accountAppId: string, accountId: string, value: number) {
    return this.call({
      operation: 'withdraw',
      about: { account: accountId },
      method: 'POST',
      path: `/api/v1/account/${idSegment('accountId', accountId)}/withdraw`,
      route: '/api/v1/account/:accountId/withdraw',
      appId: accountAppId,
      data: { value },
      schema: WithdrawResponseSchema,
      idempotent: false,
      once: true,
    }).then((r) => r.withdraw);
  }

  /** Who holds a Pix key. Sent once, never again on its own: a miss costs the company look-up tokens. */
  checkPixKey(appId: string, pixKey: string) {
    return this.call({
      operation: 'checkPixKey',
      about: { pixKey },
      method: 'POST',
      path: '/api/v1/pix-keys/check',
      route: '/api/v1/pix-keys/check',
      appId,
      data: { pixKey },
      schema: PixKeyCheckSchema,
      idempotent: false,
      once: true,
    });
  }

  /** The company's look-up tokens (shared by every AppID). */
  getLookupTokens(appId: string) {
    return this.call({
      operation: 'getLookupTokens',
      method: 'GET',
      path: '/api/v1/pix-keys/tokens',
      route: '/api/v1/pix-keys/tokens',
      appId,
      schema: LookupTokensSchema,
      idempotent: true,
    });
  }

  private async call<S extends z.ZodType>(spec: CallSpec<S>): Promise<z.output<S>> {
    const attempts = spec.idempotent ? this.retry.attempts : 1;
    // A write answered 429 was not performed: it is sent once more after the wait (a streamed body,
    // an upload, cannot be sent twice).
    let resendWrite = !spec.idempotent && !spec.once && !isStream(spec.data);
    // Not sent when it throws (a streamed body is let go by whoever opened it, as on any failure).
    if (spec.method !== 'GET') await this.options.beforeWrite?.();
    for (let attempt = 1; ; attempt++) {
      try {
        await this.options.budget?.acquire(this.options.lane ?? 'people', this.options.stop);
      } catch (err) {
        if (!(err instanceof BudgetWaitAbortedError)) throw err;
        throw new PixApiError('network', 0, undefined, undefined, undefined, spec.operation, false);
      }
      const started = Date.now();
      // A total deadline: axios's `timeout` restarts with every byte, so a trickling answer never ends.
      const deadline = AbortSignal.timeout(this.options.timeoutMs);
      let response: AxiosResponse;
      try {
        response = await this.http.request({
          method: spec.method,
          url: spec.path,
          params: spec.params,
          data: spec.data,
          headers: { Authorization: spec.appId, Accept: 'application/json', ...spec.headers },
          responseType: spec.binary ? 'arraybuffer' : 'json',
          signal: deadline,
        });
      } catch (err) {
        const code = loadAxios().isAxiosError(err) ? err.code : undefined;
        const timedOut = deadline.aborted || code === 'ECONNABORTED' || code === 'ETIMEDOUT';
        const kind = timedOut ? 'timeout' : 'network';
        const sent = !(kind === 'network' && code !== undefined && NOT_SENT.has(code));
        this.report(spec, 0, started, attempt);
        if (attempt < attempts) {
          await this.sleep(backoffDelay(this.retry, attempt));
          continue;
        }
        throw new PixApiError(kind, 0, undefined, undefined, undefined, spec.operation, sent);
      }
      this.report(spec, response.status, started, attempt);

      if (response.status >= 200 && response.status < 300) return this.parse(spec, response);

      const body = spec.binary ? decodeBinaryError(response.data) : response.data;
      if (response.status === 429) {
        const told = retryAfterMs(response.headers['retry-after']);
        const wait = Math.min(told ?? rateLimitBackoff(attempt), MAX_HOLD_OFF_MS);
        // Everyone waits, not only this call: the allowance is shared with the company's systems.
        await this.options.budget?.holdOff(wait);
        const again = attempt < attempts || resendWrite;
        // A Retry-After past the cap is honoured by the budget, but this caller is not kept waiting.
        if (again && (told === undefined || told <= this.maxRetryAfterMs)) {
          if (!spec.idempotent) resendWrite = false;
          await this.sleep(wait);
          continue;
        }
      } else if (attempt < attempts && isRetryableStatus(response.status)) {
        const wait = retryAfterMs(response.headers['retry-after']);
        if (wait === undefined || wait <= this.maxRetryAfterMs) {
          await this.sleep(wait ?? backoffDelay(this.retry, attempt));
          continue;
        }
      }
      throw PixApiError.fromResponse(spec.operation, response.status, body);
    }
  }

  private report(spec: CallSpec<z.ZodType>, status: number, started: number, attempt: number): void {
    this.options.onCall?.({
      operation: spec.operation,
      method: spec.method.toUpperCase(),
      path: spec.path,
      route: spec.route ?? routeOf(spec.path),
      status,
      ms: Date.now() - started,
      attempt,
      ...(spec.about ? { about: spec.about } : {}),
    });
  }

  private parse<S extends z.ZodType>(spec: CallSpec<S>, response: AxiosResponse): z.output<S> {
    if (spec.binary) return Buffer.from(response.data as ArrayBuffer) as z.output<S>;
    // A 204 (or any empty body) parses as `undefined`: fine for operations that expect nothing.
    const parsed = spec.schema.safeParse(response.data === '' ? undefined : response.data);
    if (!parsed.success) {
      throw new PixApiError(
        'invalid_response',
        response.status,
        'Unexpected response from the Pix API',
        undefined,
        undefined,
        spec.operation,
      );
    }
    return parsed.data;
  }
}

/** A pattern for a path whose call names none: its resource, every further segment a parameter. */
function routeOf(path: string): string {
  const [resource, ...rest] = path.replace(/^\/api\/v1\/?/, '').split('/');
  return `/api/v1/${/^[a-z-]+$/.test(resource ?? '') ? resource : ':param'}${rest.map(() => '/:param').join('')}`;
}

function isStream(data: unknown): boolean {
  return typeof (data as { pipe?: unknown } | undefined)?.pipe === 'function';
}

function decodeBinaryError(data: unknown): unknown {
  if (!(data instanceof ArrayBuffer) && !Buffer.isBuffer(data)) return data;
  const text = Buffer.from(data as ArrayBuffer).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
