import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { createClient } from '@keyv/redis';
import {
  type Admission,
  BOOK_AHEAD_MS,
  type Lane,
  MemoryRateWindow,
  PEOPLE_PLACES,
  PixBudget,
  type RateWindow,
  SHARED_PATIENCE_MS,
  SHARED_RETRY_AFTER_MS,
  WINDOW_MS,
} from '../../src/pix/budget';
import { PixClient } from '../../src/pix/client';
import { RedisRateWindow } from '../../src/store/redis/rate-window';
import { deleteKeys, SHARED_REDIS_URL, testNamespace } from '../support/redis-server';
import { waitFor } from '../support/wait';

/** A clock that moves only when the code under test sleeps. */
function fakeTime() {
  let now = 1_000_000;
  return {
    now: () => now,
    sleep: async (ms: number) => {
      now += ms;
    },
  };
}

/** The most admissions any one-second window holds. */
function peak(times: number[], windowMs = 1_000): number {
  const sorted = [...times].sort((a, b) => a - b);
  let best = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= windowMs) i++;
    best = Math.max(best, j - i + 1);
  }
  return best;
}

describe('the Pix budget', () => {
  test('never more than the limit in any one-second window, whatever the demand; the poller evenly spaced, leaving one place a window to people', async () => {
    const t = fakeTime();
    const window = new MemoryRateWindow(t.now);
    const people: number[] = [];
    const poller: number[] = [];
    for (const [lane, times, reserve] of [
      ['people', people, 0],
      ['poller', poller, 1],
    ] as const) {
      while (times.length < 40) {
        const admission = await window.admit(5, reserve);
        if ('go' in admission) times.push(t.now() + admission.go);
        else await t.sleep(admission.wait);
      }
      expect({ lane, peak: peak(times) }).toEqual({ lane, peak: reserve ? 4 : 5 });
      // The sweep is spread over the window, not sent in bursts: a turn every window / limit at the
      // least. A person takes any free place at once.
      const gaps = times.slice(1).map((at, i) => at - times[i]!);
      if (reserve) expect(Math.min(...gaps)).toBeGreaterThanOrEqual(Math.floor(WINDOW_MS / 5));
      else expect(Math.min(...gaps)).toBe(0);
    }
  });

  test('the poller’s turn due within BOOK_AHEAD_MS is booked for its time: asked back to back, its next turns are taken evenly spaced ahead, then it waits; people are admitted for now', async () => {
    const t = fakeTime();
    const window = new MemoryRateWindow(t.now);
    const limit = 1_000;
    const gap = WINDOW_MS / limit;
    const answers: Admission[] = [];
    for (let ask = 0; ask < 10; ask++) answers.push(await window.admit(limit, PEOPLE_PLACES));
    const booked = answers.flatMap((a) => ('go' in a ? [a.go] : []));
    expect(booked).toHaveLength(Math.floor(BOOK_AHEAD_MS / gap) + 1);
    for (const [i, go] of booked.entries()) expect(go).toBeCloseTo(i * gap, 6);
    expect(answers.slice(booked.length).every((a) => 'wait' in a && a.wait >= 1)).toBe(true);
    expect(await window.admit(limit, 0)).toEqual({ go: 0 });
  });

  test('a booked turn’s caller goes at its time, not when it is booked: the sweep at a thousand calls a second keeps the pace and never runs ahead of it', async () => {
    let now = 1_000_000;
    // A clock that moves only to the next wait's end, each wait ended in turn: timers exact to the microsecond.
    const sleeping: Array<{ until: number; resolve: () => void }> = [];
    const sleep = (ms: number) => new Promise<void>((resolve) => sleeping.push({ until: now + ms, resolve }));
    const settle = () => new Promise((r) => setImmediate(r));
    const limit = 1_000;
    const budget = new PixBudget({ limit, window: new MemoryRateWindow(() => now), sleep });
    const times: number[] = [];
    const calls = Array.from({ length: 100 }, () => budget.acquire('poller').then(() => void times.push(now)));
    await settle();
    while (times.length < calls.length) {
      sleeping.sort((a, b) => a.until - b.until);
      const next = sleeping.shift()!;
      now = Math.max(now, next.until);
      next.resolve();
      await settle();
    }
    // The i-th call goes i gaps after the first (five turns booked ahead and let go at once would not).
    const gap = WINDOW_MS / limit;
    for (const [i, at] of times.entries()) expect(at - times[0]!).toBeCloseTo(i * gap, 6);
  });

  test('a person waiting goes before the poller’s queued reads', async () => {
    const t = fakeTime();
    const budget = new PixBudget({ limit: 1, window: new MemoryRateWindow(t.now), sleep: t.sleep });
    const order: string[] = [];
    const take = (lane: Lane, name: string) => budget.acquire(lane).then(() => void order.push(name));
    await Promise.all([take('poller', 'read 1'), take('poller', 'read 2'), take('poller', 'read 3'), take('people', 'person')]);
    expect(order).toEqual(['read 1', 'person', 'read 2', 'read 3']);
  });

  test('the sweep leaves PEOPLE_PLACES places of each window to people: a person’s calls one after another, amid a sweep at its pace, wait for none of its reads', async () => {
    let now = 1_000_000;
    // The pump's waits end only when the test moves the clock to them.
    const sleeping: Array<{ until: number; resolve: () => void }> = [];
    const sleep = (ms: number) => new Promise<void>((resolve) => sleeping.push({ until: now + ms, resolve }));
    const settle = () => new Promise((r) => setImmediate(r));
    const limit = 5;
    const budget = new PixBudget({ limit, window: new MemoryRateWindow(() => now), sleep });
    const reads: number[] = [];
    for (let i = 0; i < 40; i++) void budget.acquire('poller').then(() => void reads.push(now));
    // The sweep runs for three windows: its share of each is taken, turn after turn.
    await settle();
    while (now < 1_000_000 + 3 * WINDOW_MS) {
      sleeping.sort((a, b) => a.until - b.until);
      const next = sleeping.shift()!;
      now = Math.max(now, next.until);
      next.resolve();
      await settle();
    }
    expect(reads.filter((at) => at > now - WINDOW_MS)).toHaveLength(limit - PEOPLE_PLACES);
    // The person's calls, one after the other, the clock still: each is admitted at once.
    for (let call = 1; call <= PEOPLE_PLACES; call++) {
      let admitted = false;
      void budget.acquire('people').then(() => (admitted = true));
      await settle();
      expect({ call, admitted }).toEqual({ call, admitted: true });
    }
    expect(PEOPLE_PLACES).toBeGreaterThanOrEqual(2);
  });

  test('after a 429 nobody is admitted until the hold-off ends, then at half the limit for a while', async () => {
    const t = fakeTime();
    const window = new MemoryRateWindow(t.now);
    await window.holdOff(2_000, 60_000);
    expect(await window.admit(10, 0)).toEqual({ wait: 2_000 });
    await t.sleep(2_000);
    const admitted: number[] = [];
    while (admitted.length < 20) {
      const admission = await window.admit(10, 0);
      if ('go' in admission) admitted.push(t.now() + admission.go);
      else await t.sleep(admission.wait);
    }
    expect(peak(admitted)).toBe(5);
  });
});

describe('the Pix client and the budget on a 429', () => {
  interface Seen {
    method: string;
    url: string;
  }
  async function scripted(script: Array<{ status: number; body: unknown; headers?: Record<string, string> }>) {
    const seen: Seen[] = [];
    const server = http.createServer(async (req, res) => {
      for await (const _ of req);
      seen.push({ method: req.method!, url: req.url! });
      const step = script[Math.min(seen.length - 1, script.length - 1)]!;
      res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers }).end(JSON.stringify(step.body));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      seen,
      close: () => new Promise<void>((r) => server.close(() => r())),
    };
  }

  /** A window that admits everyone and records each hold-off. */
  function recordingBudget() {
    const holdOffs: number[] = [];
    const admitted: number[] = [];
    const window: RateWindow = {
      admit: async () => {
        admitted.push(Date.now());
        return { go: 0 };
      },
      holdOff: async (ms) => void holdOffs.push(ms),
    };
    return { budget: new PixBudget({ limit: 5, window }), holdOffs, admitted };
  }

  const sleeps: number[] = [];
  beforeEach(() => (sleeps.length = 0));
  const client = (url: string, budget: PixBudget) =>
    new PixClient({ baseUrl: url, timeoutMs: 2_000, budget, sleep: async (ms) => void sleeps.push(ms) });
  const ok = { status: 200, body: { limitRequest: { id: 'r1', companyBankAccountId: 'a1', status: 'IN_REVIEW' } } };
  const created = { status: 201, body: { limitRequest: { id: 'r1', companyBankAccountId: 'a1', status: 'IN_REVIEW' } } };
  const tooMany = (retryAfter?: string) => ({
    status: 429,
    body: { error: 'Too many requests' },
    ...(retryAfter ? { headers: { 'retry-after': retryAfter } } : {}),
  });
  const request = { companyBankAccountId: 'a1', limits: { pixDayLimit: 1, pixNightLimit: 1 }, documents: [{ fileId: 'f1' }] };

  test('with Retry-After: every lane held off that long, the read retried after it, each attempt through the budget', async () => {
    const s = await scripted([tooMany('2'), ok]);
    const b = recordingBudget();
    try {
      await expect(client(s.url, b.budget).getLimitRequest('APP', 'r1')).resolves.toMatchObject({ id: 'r1' });
      expect(s.seen).toHaveLength(2);
      expect(b.holdOffs).toEqual([2_000]);
      expect(sleeps).toEqual([2_000]);
      expect(b.admitted).toHaveLength(2);
    } finally {
      await s.close();
    }
  });

  test('without Retry-After: a back-off of a second or so (never near zero), doubling, then the read fails with the 429', async () => {
    const s = await scripted([tooMany()]);
    const b = recordingBudget();
    try {
      await expect(client(s.url, b.budget).getLimitRequest('APP', 'r1')).rejects.toMatchObject({ status: 429 });
      expect(s.seen).toHaveLength(3);
      expect(b.holdOffs).toHaveLength(3);
      expect(b.holdOffs[0]).toBeGreaterThanOrEqual(500);
      expect(b.holdOffs[0]).toBeLessThanOrEqual(1_000);
      expect(b.holdOffs[1]).toBeGreaterThanOrEqual(1_000);
      expect(b.holdOffs[1]).toBeLessThanOrEqual(2_000);
      expect(sleeps).toEqual(b.holdOffs.slice(0, 2));
    } finally {
      await s.close();
    }
  });

  test('a write answered 429 was not performed: sent again once after the wait, and no more', async () => {
    const once = await scripted([tooMany('1'), created]);
    const twice = await scripted([tooMany('1'), tooMany('1'), created]);
    try {
      await expect(client(once.url, recordingBudget().budget).createLimitRequest('APP', request)).resolves.toMatchObject({ id: 'r1' });
      expect(once.seen.map((c) => c.method)).toEqual(['POST', 'POST']);
      await expect(client(twice.url, recordingBudget().budget).createLimitRequest('APP', request)).rejects.toMatchObject({ status: 429 });
      expect(twice.seen).toHaveLength(2);
    } finally {
      await once.close();
      await twice.close();
    }
  });

  test('an upload (a stream, which cannot be sent twice) answered 429 fails; a Retry-After past the cap holds the budget off but not the caller', async () => {
    const s = await scripted([tooMany('120')]);
    const b = recordingBudget();
    try {
      const upload = {
        stream: Readable.from([Buffer.from('%PDF-1.4\n')]),
        fileName: 'p.pdf',
        contentType: 'application/pdf',
        purpose: 'ACCOUNT_LIMIT_REQUEST' as const,
      };
      await expect(client(s.url, b.budget).uploadFile('APP', upload)).rejects.toMatchObject({ status: 429 });
      await expect(client(s.url, b.budget).getLimitRequest('APP', 'r1')).rejects.toMatchObject({ status: 429 });
      expect(s.seen).toHaveLength(2);
      // Capped at a minute: a wild Retry-After does not stop the bot for hours.
      expect(b.holdOffs).toEqual([60_000, 60_000]);
      expect(sleeps).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('the budget shared on Redis', () => {
  const prefix = testNamespace('budget');
  const clients: Array<{ close(): Promise<void> }> = [];
  const connected = async () => {
    const client = createClient({ url: SHARED_REDIS_URL });
    await client.connect();
    clients.push(client);
    return client;
  };
  const windowOn = async (holder: string, budget = 'pix-budget') =>
    new RedisRateWindow((await connected()) as never, `${prefix}:${budget}`, holder, (_op, run) => run());

  /**
   * Admissions as Redis recorded them: the time (Redis's clock) each place was given, and to which
   * lane, read from the window's sorted set right after each place this holder is given. An instance
   * asks for one place at a time, so the one new member of its own is the place just given. (The times
   * a test sees its calls let go follow its event loop, which a loaded machine delays.)
   */
  const recordedOn = async (holder: string, budget: string, recorded: Map<string, { at: number; lane: Lane }>): Promise<RateWindow> => {
    const window = await windowOn(holder, budget);
    const reader = await connected();
    return {
      async admit(limit, reserve) {
        const admission = await window.admit(limit, reserve);
        if ('go' in admission) {
          for (const { value, score } of await reader.zRangeWithScores(`${prefix}:${budget}:window`, 0, -1)) {
            if (value.startsWith(`${holder}:`) && !recorded.has(value))
              recorded.set(value, { at: score, lane: reserve > 0 ? 'poller' : 'people' });
          }
        }
        return admission;
      },
      holdOff: (ms, slowMs) => window.holdOff(ms, slowMs),
    };
  };
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await deleteKeys(SHARED_REDIS_URL, prefix);
  });

  test('two instances: their combined admissions never pass the limit in any window; a person on one is not starved by the other’s sweep', async () => {
    const limit = 5;
    const recorded = new Map<string, { at: number; lane: Lane }>();
    const a = new PixBudget({ limit, window: await recordedOn('instance-a', 'shared', recorded) });
    const b = new PixBudget({ limit, window: await recordedOn('instance-b', 'shared', recorded) });
    const admitted: Array<{ who: string }> = [];
    const take = (budget: PixBudget, lane: Lane, who: string) => budget.acquire(lane).then(() => void admitted.push({ who }));
    const sweeps = [
      ...Array.from({ length: 12 }, () => take(a, 'poller', 'a')),
      ...Array.from({ length: 12 }, () => take(b, 'poller', 'b')),
    ];
    // A person on instance b once the sweeps are well under way.
    await waitFor('eight of the sweeps admitted', () => admitted.length >= 8);
    const asked = admitted.length;
    await take(b, 'people', 'person');
    // Admitted at once (a read of the other sweep may slip in meanwhile): the sweeps leave a place of
    // each window to people, and a person does not wait out the pump's wait for the poller.
    expect(admitted.findIndex((x) => x.who === 'person') - asked).toBeLessThanOrEqual(1);
    await Promise.all(sweeps);
    expect(admitted).toHaveLength(25);
    expect(new Set(admitted.map((x) => x.who))).toEqual(new Set(['a', 'b', 'person']));
    // Judged by the times Redis gave the places, in windows of exactly WINDOW_MS.
    const places = [...recorded.values()];
    expect(places.filter((p) => p.lane === 'people')).toHaveLength(1);
    expect(places).toHaveLength(25);
    expect(
      peak(
        places.map((p) => p.at),
        WINDOW_MS,
      ),
    ).toBeLessThanOrEqual(limit);
    expect(
      peak(
        places.filter((p) => p.lane === 'poller').map((p) => p.at),
        WINDOW_MS,
      ),
    ).toBeLessThanOrEqual(limit - PEOPLE_PLACES);
  });

  test('the sweep’s lane takes all but PEOPLE_PLACES places of a window, on Redis as in one process; people take the rest at once', async () => {
    const limit = 5;
    const turn = WINDOW_MS / limit;
    for (const [where, window] of [
      ['one process', new MemoryRateWindow()],
      ['Redis', await windowOn('instance-e', 'places')],
    ] as const) {
      let swept = 0;
      // The sweep takes its evenly spaced turns until it is told to wait longer than a turn: its share is full.
      while (swept < limit) {
        const admission = await window.admit(limit, PEOPLE_PLACES);
        if ('go' in admission) swept++;
        else if (admission.wait > turn) break;
        else await new Promise((r) => setTimeout(r, admission.wait));
      }
      const people: Admission[] = [];
      for (let call = 0; call <= PEOPLE_PLACES; call++) people.push(await window.admit(limit, 0));
      expect({ where, swept, people: people.map((a) => 'go' in a && a.go === 0) }).toEqual({
        where,
        swept: limit - PEOPLE_PLACES,
        people: [...Array.from({ length: PEOPLE_PLACES }, () => true), false],
      });
    }
  });

  test('a 429 seen by one instance holds the other off too', async () => {
    const a = await windowOn('instance-c');
    const b = await windowOn('instance-d');
    await a.holdOff(1_500, 1_000);
    const admission = await b.admit(5, 0);
    expect(admission).toEqual({ wait: expect.any(Number) });
    const { wait } = admission as { wait: number };
    expect(wait).toBeGreaterThan(1_000);
    expect(wait).toBeLessThanOrEqual(1_500);
  });
});

describe('the Pix budget when its caller stops', () => {
  test('a call still waiting for its place when the signal aborts is given up, never sent; the others go on', async () => {
    const t = fakeTime();
    let wake: (() => void) | undefined;
    // The pump's waits end only when the test says so.
    const sleep = (ms: number) =>
      new Promise<void>((resolve) => {
        wake = () => {
          void t.sleep(ms);
          resolve();
        };
      });
    const budget = new PixBudget({ limit: 1, window: new MemoryRateWindow(t.now), sleep });
    const stop = new AbortController();
    const order: string[] = [];
    const first = budget.acquire('poller', stop.signal).then(() => void order.push('first'));
    const second = budget.acquire('poller', stop.signal).then(
      () => void order.push('second'),
      (err: Error) => void order.push(`second: ${err.constructor.name}`),
    );
    const person = budget.acquire('people').then(() => void order.push('person'));
    await first;
    stop.abort();
    await second;
    while (order.length < 3) {
      wake?.();
      await new Promise((r) => setImmediate(r));
    }
    await person;
    expect(order).toEqual(['first', 'second: BudgetWaitAbortedError', 'person']);
    await expect(budget.acquire('poller', stop.signal)).rejects.toThrow('not sent');
  });
});

describe('the Pix budget when its shared window hangs or fails (its store)', () => {
  /** A shared window whose every question hangs until the test ends it, as a store that accepts and never answers. */
  function hungWindow() {
    const asked: Array<{ fail(err: Error): void; answer(admission: Admission): void }> = [];
    const window: RateWindow = {
      admit: () =>
        new Promise<Admission>((resolve, reject) => {
          asked.push({ fail: reject, answer: resolve });
        }),
      holdOff: () => new Promise<void>(() => {}),
    };
    return { window, asked };
  }

  test('calls go on at the limit, counted in this process, without waiting on each question: the store is asked once, not per call', async () => {
    const limit = 10;
    const n = 3 * limit;
    const { window, asked } = hungWindow();
    const budget = new PixBudget({ limit, window, fallback: new MemoryRateWindow() });
    const started = Date.now();
    const admitted: number[] = [];
    await Promise.all(Array.from({ length: n }, () => budget.acquire('people').then(() => void admitted.push(Date.now()))));
    const took = Date.now() - started;
    // At the limit: n / limit windows (the first's places at once), plus one wait of SHARED_PATIENCE_MS;
    // twice that is the bound. Waiting on the store for each call would take n × the patience at the least.
    const atTheLimit = (n / limit - 1) * WINDOW_MS + SHARED_PATIENCE_MS;
    expect(took).toBeGreaterThanOrEqual(atTheLimit - 50);
    expect(took).toBeLessThan(2 * atTheLimit);
    expect(peak(admitted)).toBeLessThanOrEqual(limit);
    // One question under way: no other one piles up behind it.
    expect(asked).toHaveLength(1);
  });

  test('after the store fails, it is not asked for SHARED_RETRY_AFTER_MS; then it is again, and its count decides once it answers', async () => {
    let now = 1_000_000;
    const { window, asked } = hungWindow();
    const errors: unknown[] = [];
    const budget = new PixBudget({
      limit: 1_000,
      window,
      fallback: new MemoryRateWindow(() => now),
      now: () => now,
      onWindowError: (err) => errors.push(err),
    });
    await budget.acquire('people');
    expect(asked).toHaveLength(1);
    asked[0]!.fail(new Error('the store did not answer within its time limit'));
    await new Promise((r) => setImmediate(r));
    expect(errors).toHaveLength(1);
    now += SHARED_RETRY_AFTER_MS - 1;
    await budget.acquire('people');
    expect(asked).toHaveLength(1);
    now += 1;
    // Asked again; it answers at once this time, and its answer is what the caller gets.
    const next = budget.acquire('people');
    await new Promise((r) => setImmediate(r));
    expect(asked).toHaveLength(2);
    asked[1]!.answer({ go: 0 });
    await next;
    const third = budget.acquire('people');
    await new Promise((r) => setImmediate(r));
    expect(asked).toHaveLength(3);
    // A wait from the shared window is kept: asked again after it, not admitted meanwhile.
    let done = false;
    void third.then(() => (done = true));
    asked[2]!.answer({ wait: 300 });
    await waitFor('the next question', () => asked.length === 4, 2_000);
    expect(done).toBe(false);
    asked[3]!.answer({ go: 0 });
    await third;
  });

  test('a 429 reaches the shared window even while an admission waits on it: every instance holds off', async () => {
    const { window, asked } = hungWindow();
    const heldOff: number[] = [];
    const budget = new PixBudget({
      limit: 5,
      window: { ...window, holdOff: async (ms) => void heldOff.push(ms) },
      fallback: new MemoryRateWindow(),
    });
    void budget.acquire('poller');
    await waitFor('the admission asked of the shared window', () => asked.length === 1, 2_000);
    await budget.holdOff(2_000);
    expect(heldOff).toEqual([2_000]);
    asked[0]!.answer({ go: 0 });
  });

  test('a person is not held for the store’s time limit: admitted by this process’s count after SHARED_PATIENCE_MS', async () => {
    const { window } = hungWindow();
    const budget = new PixBudget({ limit: 5, window, fallback: new MemoryRateWindow() });
    const started = Date.now();
    await budget.acquire('people');
    const waited = Date.now() - started;
    expect(waited).toBeGreaterThanOrEqual(SHARED_PATIENCE_MS - 5);
    expect(waited).toBeLessThan(SHARED_PATIENCE_MS + 500);
  });
});
