import { verify } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SandboxHandle } from '../../src/sandbox';

/** Small HTTP client for the sandbox tests: real requests with the global fetch. */

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  /** Parsed JSON body (undefined when it is not JSON), taken to be of the shape `T` the caller names. */
  json: T;
  bytes: Buffer;
}

// The sandbox's answers, as far as the tests read them.
export type Balance = { total: number; blocked: number; available: number };
export type AccountAnswer = {
  account: { accountId: string; balance: Balance; withdrawBlocked: boolean; pixKeyWithdraw?: { pixKey: string; type: string } | null };
};
export type ApplicationAnswer = { application: { appID: string; clientId: string; clientSecret: string; scopes: string[] } };
export type LimitsAnswer = { limits: Record<string, number | string> };
export type LimitRequestAnswer = {
  limitRequest: { id: string; status: string; approvedLimits?: Record<string, number>; createdAt: string; updatedAt: string };
};
export type FileAnswer = { file: { id: string; size: number; createdAt: string; urlExpiresAt: string } };
export type DisputeAnswer = { dispute: { id: string; evidences: unknown[] } };
export type StatementEntry = {
  id: string;
  transactionId: string;
  time: string;
  type: string;
  description: string;
  value: number;
  balance: number;
};
export type TransactionsAnswer = { transactions: Array<{ id: string }>; account: { balance: Balance } };
export type PixKeysAnswer = { pixKeys: Array<{ key: string; type: string }> };
export type Failure = { error: string };

async function answer<T>(res: Response): Promise<Answer<T>> {
  const bytes = Buffer.from(await res.arrayBuffer());
  const isJson = (res.headers.get('content-type') ?? '').includes('application/json');
  return { status: res.status, headers: res.headers, json: isJson ? JSON.parse(bytes.toString('utf8')) : undefined, bytes };
}

export async function api<T = unknown>(
  sb: SandboxHandle,
  method: string,
  path: string,
  options: { appId?: string; body?: unknown; rawBody?: string } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = {};
  if (options.appId !== undefined) headers.authorization = options.appId;
  let body: string | undefined;
  if (options.rawBody !== undefined || options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = options.rawBody ?? JSON.stringify(options.body);
  }
  return answer<T>(await fetch(`${sb.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) }));
}

export async function control<T = unknown>(sb: SandboxHandle, method: string, path: string, body?: unknown): Promise<Answer<T>> {
  return api<T>(sb, method, `/sandbox${path}`, body === undefined ? {} : { body });
}

export const SAMPLES = {
  pdf: Buffer.from('%PDF-1.4\n% sandbox test\n%%EOF\n', 'latin1'),
  png: Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-test-bytes')]),
  jpeg: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.from('JFIF-test-bytes')]),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x20, 0, 0, 0]), Buffer.from('WEBPVP8 test-bytes')]),
};

export async function upload<T = unknown>(
  sb: SandboxHandle,
  appId: string,
  file: { bytes: Buffer; fileName?: string; type?: string; purpose?: string },
): Promise<Answer<T>> {
  const form = new FormData();
  if (file.purpose !== undefined) form.append('purpose', file.purpose);
  form.append('file', new Blob([file.bytes], { type: file.type ?? 'application/pdf' }), file.fileName ?? 'proof.pdf');
  return answer<T>(await fetch(`${sb.url}/api/v1/files`, { method: 'POST', headers: { authorization: appId }, body: form }));
}

/** Uploads a PDF proof with purpose ACCOUNT_LIMIT_REQUEST and returns its id. */
export async function uploadProof(sb: SandboxHandle, appId: string, purpose = 'ACCOUNT_LIMIT_REQUEST'): Promise<string> {
  const res = await upload<FileAnswer>(sb, appId, { bytes: SAMPLES.pdf, purpose });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${JSON.stringify(res.json)}`);
  return res.json.file.id;
}

// The money-out answers (pix-money-out.md), as far as the tests read them.
export type PaymentView = {
  id: string;
  type: string;
  value: number;
  status: string;
  destinationAlias: string;
  destinationAliasType: string;
  correlationID: string;
  comment?: string;
  sourceAccountId: string;
  metadata?: Record<string, unknown>;
  error?: { code: string; description: string };
  createdAt: string;
  updatedAt: string;
};
export type PaymentTransaction = { value: number; endToEndId: string; time: string };
export type PaymentDestination = { name: string; taxID: string; pixKey: string; bank: string; branch: string; account: string };
export type PaymentAnswer = { payment: PaymentView; transaction?: PaymentTransaction; destination?: PaymentDestination };
export type PaymentsAnswer = {
  payments: PaymentAnswer[];
  pageInfo: { skip: number; limit: number; hasPreviousPage: boolean; hasNextPage: boolean };
};
export type TokensAnswer = { tokens: number; maxTokens: number; nextRefresh: string; tokensAfterRefresh: number; refreshRate: number };
export type CheckAnswer = {
  pixKey: string;
  type: string;
  pixKeyEndToEndId: string;
  owner: { name: string; taxID: string; psp: string; branch: string; account: string };
};
export type CodedFailure = { error: string; errorCode?: string };

/** Moves the sandbox's clock forward. */
export async function advanceClock(sb: SandboxHandle, ms: number): Promise<void> {
  const res = await control(sb, 'POST', '/clock', { advanceMs: ms });
  if (res.status !== 200) throw new Error(`clock not moved: ${res.status}`);
}

/** One webhook delivery as it reached the receiver: the raw bytes and the signature header. */
export interface Received {
  raw: Buffer;
  signature: string | undefined;
  json: { event: string; [field: string]: unknown };
}

/**
 * A webhook receiver on 127.0.0.1: records every delivery, answering each with the next of `statuses`
 * (200 once they are used up).
 */
export async function startReceiver(statuses: number[] = []): Promise<{ url: string; received: Received[]; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const header = req.headers['x-webhook-signature'];
      received.push({ raw, signature: typeof header === 'string' ? header : undefined, json: JSON.parse(raw.toString('utf8')) });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Whether a key the sandbox publishes at `GET /api/v1/webhook/public-keys` verifies this delivery's signature. */
export async function signedByTheService(sb: SandboxHandle, delivery: Received): Promise<boolean> {
  if (delivery.signature === undefined) return false;
  const keys = (await api<{ public_keys: Array<{ key: string }> }>(sb, 'GET', '/api/v1/webhook/public-keys')).json.public_keys;
  return keys.some((k) => verify('RSA-SHA256', delivery.raw, k.key, Buffer.from(delivery.signature!, 'base64')));
}
