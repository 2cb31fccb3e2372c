import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { PixClient } from '../../src/pix/client';
import { PixApiError } from '../../src/pix/errors';
import { retryAfterMs } from '../../src/pix/retry';

interface Seen {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A scripted HTTP server: each request gets the next answer of the script. */
async function scriptedServer(script: Array<(req: Seen, res: http.ServerResponse) => void>) {
  const seen: Seen[] = [];
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const entry = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) };
    seen.push(entry);
    const step = script[Math.min(seen.length - 1, script.length - 1)]!;
    step(entry, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const json =
  (status: number, body: unknown, headers: Record<string, string> = {}) =>
  (_: Seen, res: http.ServerResponse) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
  };

const sleeps: number[] = [];
const client = (url: string, extra: Partial<ConstructorParameters<typeof PixClient>[0]> = {}) =>
  new PixClient({ baseUrl: url, timeoutMs: 2_000, sleep: async (ms) => void sleeps.push(ms), ...extra });

beforeEach(() => {
  sleeps.length = 0;
});

describe('PixClient', () => {
  test('sends the AppID in Authorization and validates the answer, passing unknown fields through', async () => {
    const s = await scriptedServer([json(200, { limits: { pixDayLimit: 100, pixNightLimit: 50, pixOutX: 1, brandNew: 'kept' } })]);
    try {
      const limits = await client(s.url).getLimits('APP-ID-1', '6840aeca23c0d1fe48c856a3');
      expect(limits).toEqual({ pixDayLimit: 100, pixNightLimit: 50, pixOutX: 1, brandNew: 'kept' });
      expect(s.seen[0]!.headers.authorization).toBe('APP-ID-1');
      expect(s.seen[0]!.url).toBe('/api/v1/limits/6840aeca23c0d1fe48c856a3');
    } finally {
      await s.close();
    }
  });

  test('an observed client tells its listener (and the client’s own) of every attempt: method, path, status, what it is about; never the AppID', async () => {
    const s = await scriptedServer([json(503, { error: 'busy' }), (_, res) => res.writeHead(204).end()]);
    try {
      const own: unknown[] = [];
      const seen: Array<Record<string, unknown>> = [];
      const base = client(s.url, { onCall: (e) => own.push(e) });
      await base
        .observed((e) => seen.push({ ...e }))
        .deletePixKey('APP-ID-SECRET-1', 'a@b.com')
        .catch(() => undefined);
      await base.observed((e) => seen.push({ ...e })).deletePixKey('APP-ID-SECRET-1', 'a@b.com');
      expect(seen.map(({ ms: _ms, ...e }) => e)).toEqual([
        {
          operation: 'deletePixKey',
          method: 'DELETE',
          path: '/api/v1/pix-keys/a%40b.com',
          route: '/api/v1/pix-keys/:key',
          status: 503,
          attempt: 1,
          about: { pixKey: 'a@b.com' },
        },
        {
          operation: 'deletePixKey',
          method: 'DELETE',
          path: '/api/v1/pix-keys/a%40b.com',
          route: '/api/v1/pix-keys/:key',
          status: 204,
          attempt: 1,
          about: { pixKey: 'a@b.com' },
        },
      ]);
      expect(own).toHaveLength(2);
      expect(JSON.stringify(seen)).not.toContain('APP-ID-SECRET-1');
    } finally {
      await s.close();
    }
  });

  test('reads are retried on 5xx and 429, honouring Retry-After', async () => {
    const s = await scriptedServer([
      json(503, { error: 'down' }),
      json(429, { error: 'slow down' }, { 'retry-after': '2' }),
      json(200, { limitRequest: { id: 'r1', companyBankAccountId: 'a1', status: 'IN_REVIEW' } }),
    ]);
    try {
      const r = await client(s.url).getLimitRequest('APP', 'r1');
      expect(r.status).toBe('IN_REVIEW');
      expect(s.seen).toHaveLength(3);
      expect(sleeps[1]).toBe(2000);
    } finally {
      await s.close();
    }
  });

  test('a Retry-After beyond the bound is not waited for', async () => {
    const s = await scriptedServer([json(429, { error: 'later' }, { 'retry-after': '120' })]);
    try {
      await expect(client(s.url).getLimits('APP', 'a')).rejects.toMatchObject({ status: 429, error: 'later' });
      expect(s.seen).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  test('reads give up after the attempts, with the last error', async () => {
    const s = await scriptedServer([json(502, { error: 'bad gateway' })]);
    try {
      await expect(client(s.url).listAccounts('APP')).rejects.toMatchObject({ kind: 'http', status: 502, error: 'bad gateway' });
      expect(s.seen).toHaveLength(3);
    } finally {
      await s.close();
    }
  });

  test('writes are never retried', async () => {
    const s = await scriptedServer([json(503, { error: 'down' }), json(201, {})]);
    try {
      await expect(
        client(s.url).createLimitRequest('APP', {
          companyBankAccountId: 'a',
          limits: { pixDayLimit: 1, pixNightLimit: 1 },
          documents: [{ fileId: 'f' }],
        }),
      ).rejects.toMatchObject({ status: 503 });
      expect(s.seen).toHaveLength(1);
    } finally {
      await s.close();
    }
  });

  test('a write answered 429 is sent once more after the wait; a key check and a withdraw never are (a miss costs look-up tokens; a withdraw has no idempotency key)', async () => {
    const busy = json(429, { error: 'too many', errorCode: 'TOO_MANY_REQUESTS' }, { 'retry-after': '1' });
    const s = await scriptedServer([busy, json(200, { payment: { status: 'CREATED', correlationID: 'c1' } })]);
    try {
      const created = await client(s.url).createPayment('APP', {
        value: 1_050,
        destinationAlias: 'a@b.com',
        destinationAliasType: 'EMAIL',
        correlationID: 'c1',
      });
      expect(created.status).toBe('CREATED');
      expect(s.seen).toHaveLength(2);
      expect(JSON.parse(s.seen[1]!.body.toString())).toEqual({
        type: 'PIX_KEY',
        value: 1_050,
        destinationAlias: 'a@b.com',
        destinationAliasType: 'EMAIL',
        correlationID: 'c1',
      });
    } finally {
      await s.close();
    }
    for (const call of [
      (c: PixClient) => c.checkPixKey('APP', 'a@b.com'),
      (c: PixClient) => c.withdraw('APP', '6840aeca23c0d1fe48c856a3', 500),
    ]) {
      const t = await scriptedServer([busy, json(200, {})]);
      try {
        await expect(call(client(t.url))).rejects.toMatchObject({ status: 429, errorCode: 'TOO_MANY_REQUESTS' });
        expect(t.seen).toHaveLength(1);
      } finally {
        await t.close();
      }
    }
  });

  test('money-out answers are read in both of their unclear forms: a withdraw’s value as a number or a string, the tokens’ refresh as ISO or epoch', async () => {
    const s = await scriptedServer([
      json(200, {
        withdraw: {
          transaction: { endToEndId: 'E1', value: '500' },
          account: { accountId: 'x', balance: { total: 1, blocked: 0, available: 1 } },
        },
      }),
      json(200, { tokens: 480, maxTokens: 500, nextRefresh: 1_764_900_000_000 }),
      json(200, { tokens: 10, nextRefresh: '2026-12-05T01:00:00.000Z' }),
    ]);
    try {
      const c = client(s.url);
      expect((await c.withdraw('APP', '6840aeca23c0d1fe48c856a3', 500)).transaction?.value).toBe('500');
      expect((await c.getLookupTokens('APP')).nextRefresh).toBe(1_764_900_000_000);
      expect((await c.getLookupTokens('APP')).nextRefresh).toBe('2026-12-05T01:00:00.000Z');
      expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
        'POST /api/v1/account/6840aeca23c0d1fe48c856a3/withdraw',
        'GET /api/v1/pix-keys/tokens',
        'GET /api/v1/pix-keys/tokens',
      ]);
    } finally {
      await s.close();
    }
  });

  test('a limit request is sent in integer cents, flat, with documents as fileIds; fractions are refused', async () => {
    const s = await scriptedServer([json(201, { limitRequest: { id: 'r', companyBankAccountId: 'a', status: 'IN_REVIEW' } })]);
    try {
      await client(s.url).createLimitRequest('APP', {
        companyBankAccountId: 'a',
        limits: { pixDayLimit: 123456, pixNightLimit: 100, pixOutSameHolderDayLimit: 7 },
        documents: [{ fileId: 'f1' }, { fileId: 'f2' }],
        description: 'why',
      });
      expect(JSON.parse(s.seen[0]!.body.toString())).toEqual({
        companyBankAccountId: 'a',
        pixDayLimit: 123456,
        pixNightLimit: 100,
        pixOutSameHolderDayLimit: 7,
        documents: [{ fileId: 'f1' }, { fileId: 'f2' }],
        description: 'why',
      });
      expect(s.seen[0]!.headers['content-type']).toMatch(/^application\/json/);
      expect(() =>
        client(s.url).createLimitRequest('APP', {
          companyBankAccountId: 'a',
          limits: { pixDayLimit: 1.5, pixNightLimit: 1 },
          documents: [],
        }),
      ).toThrow(RangeError);
    } finally {
      await s.close();
    }
  });

  test('both error forms become one PixApiError with the API text and errorCode', async () => {
    const s = await scriptedServer([
      json(401, { data: null, errors: [{ message: 'Invalid appID' }] }),
      json(403, { error: 'Application does not have required scope: ACCOUNT_LIMITS_REQUEST_POST' }),
      json(403, { error: 'not allowed', errorCode: 'DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED' }),
    ]);
    try {
      const c = client(s.url);
      const e1 = await c.getAccount('BAD', 'a').catch((e: unknown) => e);
      expect(e1).toBeInstanceOf(PixApiError);
      expect(e1).toMatchObject({ status: 401, error: 'Invalid appID' });
      const e2 = (await c.createPixKey('APP', { pixKey: 'a@b.c', type: 'EMAIL' }).catch((e: unknown) => e)) as PixApiError;
      expect(e2.missingScope).toBe('ACCOUNT_LIMITS_REQUEST_POST');
      const e3 = await c.addDisputeEvidence('APP', 'd', { documents: [{ fileId: 'f' }] }).catch((e: unknown) => e);
      expect(e3).toMatchObject({ status: 403, errorCode: 'DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED' });
    } finally {
      await s.close();
    }
  });

  test('an answer that does not match the interface is an invalid_response error', async () => {
    const s = await scriptedServer([json(200, { limits: { pixDayLimit: 'lots' } })]);
    try {
      await expect(client(s.url).getLimits('APP', 'a')).rejects.toMatchObject({ kind: 'invalid_response' });
    } finally {
      await s.close();
    }
  });

  test('no answer within the timeout is a timeout error (a read is retried first)', async () => {
    const s = await scriptedServer([() => undefined]);
    try {
      // Long enough for each attempt to reach the server on a busy machine (a time-out while still
      // connecting would leave the server one request short, not the client one attempt short).
      await expect(client(s.url, { timeoutMs: 500 }).getLimits('APP', 'a')).rejects.toMatchObject({ kind: 'timeout', status: 0 });
      expect(s.seen).toHaveLength(3);
    } finally {
      await s.close();
    }
  });

  test('the time limit is a total deadline: an answer trickling a byte at a time still ends at PIX_TIMEOUT_MS', async () => {
    // An idle timeout (axios's own) restarts with every byte and would wait for this answer forever.
    const timers: NodeJS.Timeout[] = [];
    const s = await scriptedServer([
      (_, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"limits":');
        timers.push(setInterval(() => res.write(' '), 50));
      },
    ]);
    try {
      // The answer never ends: that the call fails with a time-out at all is the total deadline's doing.
      await expect(
        client(s.url, { timeoutMs: 400, retry: { attempts: 1, baseDelayMs: 1, maxDelayMs: 1 } }).getLimits('APP', 'a'),
      ).rejects.toMatchObject({
        kind: 'timeout',
        status: 0,
      });
    } finally {
      timers.forEach(clearInterval);
      await s.close();
    }
  });

  test('ids the API could not issue (., .., a slash, empty) are refused before any URL is built', async () => {
    const s = await scriptedServer([json(200, {})]);
    try {
      const c = client(s.url);
      for (const bad of ['.', '..', 'a/b', '', '%2e%2e', 'a b']) {
        await expect(c.getLimits('APP', bad)).rejects.toThrow(RangeError);
        await expect(c.getAccount('APP', bad)).rejects.toThrow(RangeError);
        await expect(c.getLimitRequest('APP', bad)).rejects.toThrow(RangeError);
        await expect(c.getTransaction('APP', bad)).rejects.toThrow(RangeError);
        await expect(c.getPaymentBook('APP', bad, { month: 1, year: 2027 })).rejects.toThrow(RangeError);
        await expect(c.addDisputeEvidence('APP', bad, { documents: [] })).rejects.toThrow(RangeError);
      }
      for (const bad of ['.', '..', '...', '', 'a b', 'a\nb']) await expect(c.deletePixKey('APP', bad)).rejects.toThrow(RangeError);
      expect(s.seen).toHaveLength(0);
    } finally {
      await s.close();
    }
  });

  test('the payment booklet is asked for as a PDF (Accept: application/pdf); JSON elsewhere', async () => {
    const s = await scriptedServer([
      (_, res) => res.writeHead(200, { 'content-type': 'application/pdf' }).end('%PDF-1.4\n'),
      json(200, []),
    ]);
    try {
      const pdf = await client(s.url).getPaymentBook('APP', '6840b1f0c2a4e5d6f7a8b9c0', { month: 12, year: 2027 });
      expect(pdf.toString()).toBe('%PDF-1.4\n');
      expect(s.seen[0]!.headers.accept).toBe('application/pdf');
      await client(s.url).listAccounts('APP');
      expect(s.seen[1]!.headers.accept).toBe('application/json');
    } finally {
      await s.close();
    }
  });

  test('a refused connection is a network error; nothing was sent, so no write can have happened', async () => {
    const err = (await client('http://127.0.0.1:1')
      .getLimits('APP', 'a')
      .catch((e: unknown) => e)) as PixApiError;
    expect(err).toMatchObject({ kind: 'network', sent: false, mayHaveWritten: false });
  });

  test('a write with no answer in time, or a gateway’s 504, may have happened; the service’s own refusal did not', async () => {
    const s = await scriptedServer([
      () => undefined,
      json(504, { error: 'gateway timeout' }),
      json(500, { error: 'boom' }),
      json(400, { error: 'bad' }),
    ]);
    try {
      const c = client(s.url, { timeoutMs: 200 });
      const create = () => c.createApplication('MASTER', { accountId: 'a', name: 'n' }).catch((e: unknown) => e as PixApiError);
      expect(await create()).toMatchObject({ kind: 'timeout', mayHaveWritten: true });
      expect(await create()).toMatchObject({ status: 504, mayHaveWritten: true });
      expect(await create()).toMatchObject({ status: 500, mayHaveWritten: false });
      expect(await create()).toMatchObject({ status: 400, mayHaveWritten: false });
    } finally {
      await s.close();
    }
  });

  test('uploads stream the file as multipart with a Content-Length, and a 204 delete resolves', async () => {
    const s = await scriptedServer([
      json(201, { file: { id: 'f1', purpose: 'ACCOUNT_LIMIT_REQUEST', fileName: 'proof.pdf', contentType: 'application/pdf', size: 9 } }),
      (_, res) => res.writeHead(204).end(),
    ]);
    try {
      const bytes = Buffer.from('%PDF-1.4\n');
      let pulled = 0;
      const stream = new Readable({
        read() {
          this.push(pulled++ === 0 ? bytes : null);
        },
      });
      const file = await client(s.url).uploadFile('APP', {
        stream,
        fileName: 'proof.pdf',
        contentType: 'application/pdf',
        knownLength: bytes.length,
        purpose: 'ACCOUNT_LIMIT_REQUEST',
      });
      expect(file.id).toBe('f1');
      const req = s.seen[0]!;
      expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      expect(Number(req.headers['content-length'])).toBe(req.body.length);
      const body = req.body.toString('latin1');
      expect(body).toContain('name="purpose"\r\n\r\nACCOUNT_LIMIT_REQUEST');
      expect(body).toContain('name="file"; filename="proof.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n');
      await expect(client(s.url).deletePixKey('APP', 'a@b.c')).resolves.toBeUndefined();
      expect(s.seen[1]!.url).toBe('/api/v1/pix-keys/a%40b.c');
    } finally {
      await s.close();
    }
  });

  test('beforeWrite: a write is not sent when it throws, and its error is the call’s; a read never asks it', async () => {
    const s = await scriptedServer([json(200, { limits: { pixDayLimit: 100, pixNightLimit: 50 } })]);
    const refusal = new Error('the store does not answer');
    let asked = 0;
    const guarded = client(s.url, {
      beforeWrite: async () => {
        asked++;
        throw refusal;
      },
    });
    try {
      await expect(guarded.deletePixKey('APP', 'a@b.c')).rejects.toBe(refusal);
      const stream = new Readable({ read() {} });
      await expect(
        guarded.uploadFile('APP', { stream, fileName: 'p.pdf', contentType: 'application/pdf', purpose: 'ACCOUNT_LIMIT_REQUEST' }),
      ).rejects.toBe(refusal);
      expect(s.seen).toEqual([]);
      expect(asked).toBe(2);
      await expect(guarded.getLimits('APP', '6840aeca23c0d1fe48c856a3')).resolves.toEqual({ pixDayLimit: 100, pixNightLimit: 50 });
      expect(asked).toBe(2);
    } finally {
      await s.close();
    }
  });
});

describe('retryAfterMs', () => {
  test('seconds and HTTP dates', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(10_000 + 5_000).toUTCString(), 10_000)).toBe(5000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });
});
