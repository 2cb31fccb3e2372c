import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { EventEmitter, setMaxListeners } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { type RunningApp, STOP_DRAIN_MS, startPixOps } from '../src/app';
import type { Deps } from '../src/deps';
import { loadConfig } from '../src/runtime/config';
import { createLogger, SecretRegistry } from '../src/runtime/logger';
import type { SandboxCompany } from '../src/sandbox';
import { SLACK_PACE } from '../src/slack/pacing';
import { interactionBody, slashCommandBody } from '../src/slack-standin/deliveries';
import { slackSignatureHeaders } from '../src/slack-standin/signing';
import { type SlackApiCall, SlackStandIn } from '../src/slack-standin/web-api';
import type { Store } from '../src/store';
import { type Figure, percentile } from './judge';

export { type Figure, percentile };

export const SIGNING_SECRET = 'bench-signing-secret-0123456789';
export const BOT_TOKEN = 'xoxb-bench-bot-token-0123456789';
const DIST = path.resolve(__dirname, '..');

/** The app's own configuration when nothing is set: its defaults, as it reads them. */
const APP_DEFAULTS = (() => {
  const result = loadConfig({ SLACK_BOT_TOKEN: BOT_TOKEN, SLACK_SIGNING_SECRET: SIGNING_SECRET });
  if (!result.ok) throw new Error(result.problems.join('; '));
  return result.config;
})();
/** The longest the bot gives one Pix call (PIX_TIMEOUT_MS's default): past it, the bot has given up. */
export const PIX_CALL_MS = APP_DEFAULTS.pix.timeoutMs;
/** How long a pending approval waits before it expires (APPROVAL_TTL's default). */
export const APPROVAL_TTL_MS = APP_DEFAULTS.approvals.ttlMs;

export interface Child {
  process: ChildProcess;
  output: () => string;
  /** Emits `output` at each chunk the child writes (a wait's wake-up, see `until`). */
  events: EventEmitter;
  stop(): Promise<void>;
}

/**
 * How much longer than the pace or bound it waits for a wait allows before it gives up: a wait that
 * runs out is a benchmark that failed (the figure itself is judged against its bound, not this).
 */
export const WAIT_MARGIN = 3;
/** The start-up benchmark's bound: a process of ours answers within this of its spawn. */
export const START_BOUND_MS = 2_000;
/** How long a wait for a process of ours to be up allows (START_BOUND_MS, with the margin). */
export const START_WAIT_MS = WAIT_MARGIN * START_BOUND_MS;
/** The usual rig's processes to start (the sandbox, the bot), at START_BOUND_MS each. */
export const RIG_START_MS = 2 * START_BOUND_MS;
/** How long `n` posts in one channel take at the bot's own pace for chat.postMessage (src/slack/pacing.ts). */
export const botPaceMs = (n: number) => {
  const pace = SLACK_PACE['chat.postMessage']!;
  return (Math.max(0, n - pace.burst) / pace.perSecond) * 1000;
};
/**
 * Slack's deadlines: a delivery acknowledged within 3 s (or Slack tells the person it failed), a
 * trigger_id usable for 3 s (https://docs.slack.dev/interactivity/handling-user-interaction).
 */
export const SLACK_ACK_MS = 3_000;
/**
 * After SIGTERM, how long a child has before SIGKILL: the bot drains for STOP_DRAIN_MS and then
 * closes; the margin covers the rest of its stop.
 */
const EXIT_GRACE_MS = WAIT_MARGIN * STOP_DRAIN_MS;

/**
 * A benchmark: its run, and how long it may take at most, derived from what it does: its phases at
 * the paces and bounds they are held to, times WAIT_MARGIN (a process's start at START_BOUND_MS, N
 * posts at Slack's pace…), or, for a phase held to none, the longest the app or Slack itself allows
 * it (PIX_CALL_MS a Pix call, SLACK_ACK_MS an acknowledgement). Past it the benchmark is stopped and
 * reported as failed.
 */
export interface Benchmark {
  (): Promise<Figure[]>;
  timeLimitMs: number;
}

export function benchmark(timeLimitMs: number, run: () => Promise<Figure[]>): Benchmark {
  return Object.assign(run, { timeLimitMs });
}

/** Aborted when the running benchmark is out of time: every wait (until, pause) then gives up. */
let running: AbortSignal | undefined;
/** Children spawned by the running benchmark and not yet exited. */
const children = new Set<Child>();

/**
 * Runs one benchmark within its time limit. Out of time, its waits give up (so its own clean-up
 * runs) and it is given up on; either way, any child it left running is stopped.
 */
export async function runBenchmark(run: Benchmark): Promise<Figure[]> {
  const controller = new AbortController();
  // Every wait of the benchmark listens to it, as many at once as it runs (a burst's): not a leak.
  setMaxListeners(0, controller.signal);
  running = controller.signal;
  const outcome = run();
  try {
    return await within(outcome, run.timeLimitMs, () => new Error(`out of its time limit (${(run.timeLimitMs / 1000).toFixed(0)} s)`));
  } catch (err) {
    controller.abort(err);
    // Its waits now throw and its `finally` blocks stop what it started; a child's stop is the longest.
    await within(outcome, EXIT_GRACE_MS, () => undefined).catch(() => undefined);
    throw err;
  } finally {
    running = undefined;
    await Promise.all([...children].map((c) => c.stop()));
  }
}

/** `promise`, or the rejection `late()` makes if it has not settled within `ms`. */
async function within<T>(promise: Promise<T>, ms: number, late: () => unknown): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const outOfTime = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), ms);
  });
  try {
    return await Promise.race([promise, outOfTime]);
  } finally {
    clearTimeout(timer);
  }
}

/** Waits `ms`, or gives up when the running benchmark is out of time. */
export async function pause(ms: number): Promise<void> {
  const signal = running;
  signal?.throwIfAborted();
  await delay(ms, undefined, signal ? { signal } : {}).catch((err: unknown) => {
    throw signal?.reason ?? err;
  });
}

/**
 * CPU pinning for the load benchmark (`taskset`, when there is one and more than one CPU): the apps
 * measured on one CPU, the bench itself (the client) on another, so the two do not take turns on the
 * same CPU and the figures depend on the apps, not on the scheduler.
 */
export function pinCpus(): { apps: number; restore(): void } | undefined {
  const cpus = os.cpus().length;
  if (cpus < 2) return undefined;
  const pin = (list: string) => spawnSync('taskset', ['-cp', list, String(process.pid)], { stdio: 'ignore' }).status === 0;
  if (!pin('0')) return undefined;
  return { apps: 1, restore: () => void pin(`0-${cpus - 1}`) };
}

export function spawnNode(
  script: string,
  env: Record<string, string>,
  execArgv: string[] = [],
  cpu?: number,
  options: { ipc?: boolean } = {},
): Child {
  const args = [...execArgv, path.join(DIST, script)];
  const [command, argv] = cpu === undefined ? [process.execPath, args] : ['taskset', ['-c', String(cpu), process.execPath, ...args]];
  const child = spawn(command, argv, {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const events = new EventEmitter();
  for (const stream of [child.stdout!, child.stderr!]) {
    stream.on('data', (d) => {
      out += d;
      events.emit('output');
    });
  }
  const handle: Child = {
    process: child,
    output: () => out,
    events,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), EXIT_GRACE_MS).unref();
      }),
  };
  children.add(handle);
  child.once('exit', () => children.delete(handle));
  return handle;
}

/**
 * What makes a wait look at its condition again: an event that may have changed it (a Slack
 * stand-in's `call` or `response`, a child's `output`), or, where nothing tells of a change (another
 * process's state read over HTTP), the pace of what it waits for.
 */
export type Wake = { emitter: EventEmitter; events: string[] } | { everyMs: number };

/** Woken by a child's output. */
export const onOutput = (child: Child): Wake => ({ emitter: child.events, events: ['output'] });
/** Woken by the Slack stand-in's calls and response_url posts. */
export const onSlack = (slack: SlackStandIn): Wake => ({ emitter: slack.events, events: ['call', 'response'] });

/**
 * Waits until `probe` answers something, looking again at each `wake`, for at most `timeoutMs`
 * (derived by the caller from the pace or bound it waits for), or until the running benchmark is out
 * of time. A wait woken by events notices at once: a time taken when it ends includes no probing delay.
 */
export async function until<T>(
  what: string,
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  wake: Wake,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  const signal = running;
  for (;;) {
    signal?.throwIfAborted();
    // Listening before the probe: a change between the probe and the listener is not missed.
    const next = nextWake(wake, deadline, signal);
    try {
      const v = await probe();
      if (v !== undefined && v !== null && v !== false) return v as T;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what} (${(timeoutMs / 1000).toFixed(1)} s)`);
      await next.woken;
    } finally {
      next.cancel();
    }
  }
}

/** The next wake-up: an event, the pace's next step, the deadline, or the benchmark aborted (a rejection). */
function nextWake(wake: Wake, deadline: number, signal: AbortSignal | undefined): { woken: Promise<void>; cancel(): void } {
  let cancel: () => void = () => undefined;
  const woken = new Promise<void>((resolve, reject) => {
    const wakeUp = () => {
      cancel();
      resolve();
    };
    const aborted = () => {
      cancel();
      reject(signal?.reason);
    };
    const timer = setTimeout(wakeUp, Math.max(0, Math.min(deadline - Date.now() + 1, 'everyMs' in wake ? wake.everyMs : Infinity)));
    if ('emitter' in wake) for (const e of wake.events) wake.emitter.on(e, wakeUp);
    signal?.addEventListener('abort', aborted);
    cancel = () => {
      clearTimeout(timer);
      if ('emitter' in wake) for (const e of wake.events) wake.emitter.off(e, wakeUp);
      signal?.removeEventListener('abort', aborted);
    };
  });
  return { woken, cancel: () => cancel() };
}

/** The sandbox Pix API in a process of its own, so that it weighs nothing on the bot's figures. */
export async function startSandboxProcess(): Promise<Child & { url: string; main: SandboxCompany }> {
  const child = spawnNode('src/sandbox/cli.js', { SANDBOX_PORT: '0' });
  const url = await until('the sandbox', () => /PIX_API_URL=(\S+)\)/.exec(child.output())?.[1], START_WAIT_MS, onOutput(child));
  const info = (await (await fetch(`${url}/sandbox/info`)).json()) as { companies: { main: SandboxCompany } };
  return { ...child, url, main: info.companies.main };
}

export async function sandboxControl(url: string, pathname: string, body?: unknown, method = 'POST'): Promise<unknown> {
  const res = await fetch(`${url}${pathname}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return res.status === 204 ? undefined : res.json();
}

/** The yardstick: a bare Bolt app, run by a plain `node`. */
export const BARE_BOLT = 'bench/bare-bolt.js';

/** The bot as `npm start` runs it, in HTTP mode on a free port. */
export async function startBotProcess(
  env: Record<string, string>,
  script = 'src/main.js',
  cpu?: number,
): Promise<Child & { port: number; pid: number; readyMs: number }> {
  const started = Date.now();
  const child = spawnNode(
    script,
    {
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      PORT: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    [],
    cpu,
  );
  const line = await until(
    'the bot',
    () =>
      child
        .output()
        .split('\n')
        .find((l) => l.includes('Pix Ops is running')),
    START_WAIT_MS,
    onOutput(child),
  ).catch((err) => {
    throw new Error(`${(err as Error).message}\n${child.output()}`);
  });
  return { ...child, port: (JSON.parse(line) as { port: number }).port, pid: child.process.pid!, readyMs: Date.now() - started };
}

/** One approval's handling: from taking its claim to giving it back (ms since the epoch, see `preciseNow`). */
export interface ClaimSpan {
  approvalId: string;
  from: number;
  to: number;
}

/** Now, in ms since the epoch to the microsecond: the clock of the Slack stand-in's `receivedAt` and `answeredAt`, in any process. */
export const preciseNow = () => performance.timeOrigin + performance.now();

/**
 * The deps with the approvals' claims timed, through the store the app is given (nothing of the app
 * patched): each span from taking an approval's claim to giving it back is pushed to `spans`.
 */
export function timedApprovalClaims(deps: Deps, spans: ClaimSpan[]): Deps {
  const taken = new Map<string, number>();
  return {
    ...deps,
    store: {
      ...deps.store,
      async claim(key, ttlMs) {
        const got = await deps.store.claim(key, ttlMs);
        if (got && key.startsWith('approval:')) taken.set(key, preciseNow());
        return got;
      },
      async release(key) {
        await deps.store.release(key);
        const from = taken.get(key);
        if (from === undefined) return;
        taken.delete(key);
        spans.push({ approvalId: key.slice('approval:'.length), from, to: preciseNow() });
      },
    },
  };
}

/**
 * Each span's handling beyond its Slack calls (ms): the span less the time the Slack stand-in spent
 * on the calls `slackOf` gives for its approval, from each one's arrival to its answer handed to the
 * socket (the stand-in's own clock: measured from outside the client), those that arrived within the
 * span, overlapping calls counted once.
 */
export function beyondSlack(spans: ClaimSpan[], slackOf: (approvalId: string) => SlackApiCall[]): number[] {
  return spans.map(({ approvalId, from, to }) => {
    const intervals = slackOf(approvalId)
      .filter((c) => c.receivedAt >= from && c.receivedAt <= to)
      .map((c) => [c.receivedAt, Math.min(c.answeredAt ?? to, to)] as const)
      .sort((a, b) => a[0] - b[0]);
    let slack = 0;
    let reached = -Infinity;
    for (const [start, end] of intervals) {
      const from_ = Math.max(start, reached);
      if (end > from_) slack += end - from_;
      reached = Math.max(reached, end);
    }
    return to - from - slack;
  });
}

/** The stand-in's calls grouped by the approval `approvalOf` says each one is for (calls for none left out). */
export function callsByApproval(
  calls: SlackApiCall[],
  approvalOf: (call: SlackApiCall) => string | undefined,
): Map<string, SlackApiCall[]> {
  const by = new Map<string, SlackApiCall[]>();
  for (const call of calls) {
    const id = approvalOf(call);
    if (id !== undefined) by.set(id, [...(by.get(id) ?? []), call]);
  }
  return by;
}

/**
 * `global.gc`, which node exposes only when started with --expose-gc (`npm run bench` passes it): a
 * figure read after a full collection cannot be taken without it, so it fails, saying so.
 */
export function exposedGc(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('global.gc is not exposed: start node with --expose-gc (npm run bench does)');
  return gc;
}

/** `n` approvals waiting for a checker in `channel`, each with its root in the Slack stand-in: their ids and roots. */
export async function seedApprovals(
  store: Store,
  slack: SlackStandIn,
  channel: string,
  n: number,
  expiresInMs: number,
): Promise<Array<{ id: string; rootTs: string }>> {
  const seeded: Array<{ id: string; rootTs: string }> = [];
  for (let i = 0; i < n; i++) {
    const id = randomBytes(8).toString('hex');
    await store.approvals.create({
      id,
      makerId: 'U0MAKER01',
      makerLocale: 'en',
      channel,
      payload: { action: 'key-add', accountId: '6840aeca23c0d1fe48c856a3', pixKey: `bench-${i}@example.com`, type: 'EMAIL' },
      expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
    });
    const root = slack.addMessage({ channel, text: 'approval root', bot_id: 'B0BOT', user: 'U0BOT' });
    await store.approvals.update(id, (r) => ({ ...r, rootTs: root.ts }));
    seeded.push({ id, rootTs: root.ts });
  }
  return seeded;
}

/** The JSON log lines a bot process wrote so far. */
export function logLines(child: Child): Array<Record<string, unknown>> {
  return child
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}

/** Runs `jobs` with at most `concurrency` at a time. */
export async function inBatches<T>(count: number, concurrency: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) {
        const i = next++;
        out[i] = await job(i);
      }
    }),
  );
  return out;
}

export const MiB = 1024 * 1024;

export function signedCommand(port: number, userId: string, text: string, responseUrl: string, triggerId?: string) {
  const { url, init } = signedCommandRequest(port, userId, text, responseUrl, triggerId);
  return fetch(url, init);
}

/** A signed `/pix` slash command, ready to send (a fresh trigger_id each: Slack makes one per command). */
export function signedCommandRequest(
  port: number,
  userId: string,
  text: string,
  responseUrl: string,
  triggerId = `trigger-${Math.random().toString(36).slice(2)}`,
) {
  const body = slashCommandBody({ userId, text, channelId: 'C0BENCH', responseUrl, triggerId });
  return {
    url: `http://127.0.0.1:${port}/slack/events`,
    init: {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...slackSignatureHeaders(body, SIGNING_SECRET) },
    },
  };
}

export function signedInteraction(port: number, payload: unknown) {
  const body = interactionBody(payload);
  return fetch(`http://127.0.0.1:${port}/slack/events`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...slackSignatureHeaders(body, SIGNING_SECRET) },
  });
}

/**
 * The resident memory of a process now, its peak (VmHWM) reset to it first: the peak read afterwards
 * is then the work's own, not a start-up's that a collection has since given back (writing 5 to
 * /proc/PID/clear_refs resets VmHWM, see proc(5)).
 */
export function memoryFromNow(pid: number): number {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Without it the peak is the process's since its start: the figure can only come out larger.
  }
  return residentMemory(pid).rss;
}

/**
 * A child's next IPC message saying `what` (`{ [what]: value }`; an `{ error }` it sends, or its
 * exit, fails it with its output), within `waitMs`: the minimal streamer's and exporter's protocol.
 */
export function messageFrom(child: Child, who: string, what: string, waitMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => finish(new Error(`${who}: no ${what} within ${waitMs} ms`)), waitMs);
    const onMessage = (m: Record<string, unknown>) => {
      if (typeof m.error === 'string') finish(new Error(`${who} failed: ${m.error}`));
      else if (what in m) finish(undefined, m[what]);
    };
    const onExit = (code: number | null) => finish(new Error(`${who} exited (${code}) before ${what}`));
    const finish = (err: Error | undefined, value?: unknown) => {
      clearTimeout(timer);
      child.process.off('message', onMessage);
      child.process.off('exit', onExit);
      if (err) reject(new Error(`${err.message}\n${child.output()}`));
      else resolve(value);
    };
    child.process.on('message', onMessage);
    child.process.once('exit', onExit);
  });
}

/** A process's CPU time so far, user and system (ms), from /proc/PID/stat (its 14th and 15th fields, in clock ticks). */
export function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /s, '')
    .split(' ');
  // Fields after the command's name start at the 3rd (state): utime is the 14th, stime the 15th.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
}

/** The kernel's clock ticks a second (USER_HZ), the unit of /proc/PID/stat's CPU times. */
let ticksPerSecond: number | undefined;
function clockTicks(): number {
  ticksPerSecond ??= Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;
  return ticksPerSecond;
}

/** Whether a thread of the process is running or waiting for a CPU (state R, proc(5)). */
function anyThreadRunnable(pid: number): boolean {
  return readdirSync(`/proc/${pid}/task`).some((tid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      return stat[stat.lastIndexOf(')') + 2] === 'R';
    } catch {
      // The thread ended between the listing and the read.
      return false;
    }
  });
}

/**
 * Waits until a process is at rest: at two looks in a row, one clock tick apart (the resolution of
 * its CPU time), none of its threads running or waiting for a CPU, and no CPU time spent between
 * them. Work a process does in the background after its answer (V8 compiling a hot function on a
 * worker thread) is then over, not counted in what is measured next.
 */
export async function untilAtRest(what: string, pid: number, timeoutMs: number): Promise<void> {
  let last: { runnable: boolean; cpuMs: number } | undefined;
  await until(
    what,
    () => {
      const now = { runnable: anyThreadRunnable(pid), cpuMs: cpuMsOf(pid) };
      const rest = last !== undefined && !last.runnable && !now.runnable && now.cpuMs === last.cpuMs;
      last = now;
      return rest;
    },
    timeoutMs,
    { everyMs: 1000 / clockTicks() },
  );
}

/** Resident memory of a process, in bytes: now (VmRSS) and its peak so far (VmHWM). */
export function residentMemory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/**
 * The usual set-up: a fake Slack in this process, the sandbox and one bot (sqlite store in a fresh
 * folder, PIX_API_URL = the sandbox, `operator` an operator) each in a process of its own.
 */
export async function startRig(operator: string) {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-'));
  const slack = await new SlackStandIn().start();
  slack.botToken = BOT_TOKEN;
  const sandbox = await startSandboxProcess();
  const bot = await startBotProcess({
    SLACK_API_URL: slack.apiUrl,
    PIX_API_URL: sandbox.url,
    PIX_APP_ID: sandbox.main.mainAppId,
    STORE_URL: `sqlite://${path.join(dir, 'store.sqlite')}`,
    ACCESS_OPERATORS: operator,
  });
  return {
    slack,
    sandbox,
    bot,
    async close() {
      await bot.stop();
      await sandbox.stop();
      await slack.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The order of a paired round's three runs: ours, the baseline, and the baseline again (the null's
 * second run). The baseline is always in the middle, ours and the baseline's repeat on either side,
 * each first in every other round: both ratios (ours ÷ baseline, repeat ÷ baseline) are taken
 * between neighbours, in the same positions as often, so that a drift of the machine's speed weighs
 * on both alike. Where the apps are processes that keep running, the repeat is a process of its own
 * (a second baseline): across rounds ours follows itself in every other round, and so does the
 * repeat, so that neither ratio is the only one to meet a process still busy with its last burst.
 */
export const roundOrder = (round: number): Array<'ours' | 'base' | 'again'> =>
  round % 2 === 0 ? ['ours', 'base', 'again'] : ['again', 'base', 'ours'];

/** What paired rounds measured: each run's value, and each round's ratio and null ratio. */
export interface PairedRounds {
  ours: number[];
  base: number[];
  again: number[];
  /** Ours ÷ the baseline, a round each. */
  ratios: number[];
  /** The baseline's repeat ÷ the baseline, a round each: the null ratios. */
  nulls: number[];
}

/**
 * `rounds` paired rounds (roundOrder): each `ours(round)`, `base(round)` and `again(round)` (the
 * baseline's repeat: `base` again when each run is a fresh process, a second baseline where the
 * apps keep running) once, the measurements taken as they come back (a time, a size); the figure is
 * then judged with judge.ts's ratioFigure from `ratios` and `nulls`.
 */
export async function pairedRounds(
  rounds: number,
  measure: { ours(round: number): Promise<number>; base(round: number): Promise<number>; again?(round: number): Promise<number> },
): Promise<PairedRounds> {
  const got: Pick<PairedRounds, 'ours' | 'base' | 'again'> = { ours: [], base: [], again: [] };
  const runs = { ours: measure.ours, base: measure.base, again: measure.again ?? measure.base };
  for (let round = 0; round < rounds; round++) {
    for (const run of roundOrder(round)) got[run].push(await runs[run](round));
  }
  return {
    ...got,
    ratios: got.ours.map((v, i) => v / got.base[i]!),
    nulls: got.again.map((v, i) => v / got.base[i]!),
  };
}

/** Single commands that warm each app up before pairedAckRounds' bursts. */
export const ACK_WARM_UPS = 20;

/**
 * What pairedAckRounds takes at most: each of its bursts (the three apps' warm-ups, then three a
 * round) acknowledged within Slack's deadline, SLACK_ACK_MS.
 */
export const pairedAckRoundsMs = (rounds: number) => (3 * (ACK_WARM_UPS + 1) + 3 * rounds) * SLACK_ACK_MS;

/**
 * Slash commands under load, two apps compared: in each of `rounds` paired rounds (roundOrder),
 * `concurrent` signed commands at once to our app, to the baseline app and to a second process of the
 * baseline, back to back, so that all meet the same machine (a shared VM whose speed drifts by tens
 * of percent over seconds). A round's ratio is our percentile over the baseline's, its null ratio the
 * second baseline's over the first's; judged by the median of the rounds' ratios (judge.ts). Latency:
 * from sending a request to reading its acknowledgement.
 */
export async function pairedAckRounds(input: {
  ours: { port: number };
  theirs: { port: number };
  theirsAgain: { port: number };
  userId: string;
  text: string;
  slack: SlackStandIn;
  rounds: number;
  concurrent: number;
}): Promise<{ ratios(p: 50 | 99): number[]; nulls(p: 50 | 99): number[]; pooled(p: 50 | 99): { ours: number; theirs: number } }> {
  const { ours, theirs, theirsAgain, userId, text, slack, rounds, concurrent } = input;
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const burst = async (port: number, n: number): Promise<number[]> => {
    // Signed beforehand, and the bench's own garbage collected, so the burst measures the app.
    const requests = Array.from({ length: n }, (_, i) => signedCommandRequest(port, userId, text, slack.responseUrl(`ack-${i}`)));
    gc();
    return Promise.all(
      requests.map(async ({ url, init }) => {
        const started = process.hrtime.bigint();
        const res = await fetch(url, init);
        await res.text();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        return Number(process.hrtime.bigint() - started) / 1e6;
      }),
    );
  };
  // Warm-up: auth.test, connections, JIT.
  for (const port of [ours.port, theirs.port, theirsAgain.port]) {
    for (let i = 0; i < ACK_WARM_UPS; i++) await burst(port, 1);
    await burst(port, concurrent);
  }
  const ratios = { 50: [] as number[], 99: [] as number[] };
  const nulls = { 50: [] as number[], 99: [] as number[] };
  const all = { ours: [] as number[], theirs: [] as number[] };
  for (let r = 0; r < rounds; r++) {
    const got = { ours: [] as number[], base: [] as number[], again: [] as number[] };
    const app = { ours, base: theirs, again: theirsAgain };
    for (const run of roundOrder(r)) got[run] = await burst(app[run].port, concurrent);
    all.ours.push(...got.ours);
    all.theirs.push(...got.base);
    for (const p of [50, 99] as const) {
      ratios[p].push(percentile(got.ours, p) / percentile(got.base, p));
      nulls[p].push(percentile(got.again, p) / percentile(got.base, p));
    }
  }
  return {
    ratios: (p) => ratios[p],
    nulls: (p) => nulls[p],
    pooled: (p) => ({ ours: percentile(all.ours, p), theirs: percentile(all.theirs, p) }),
  };
}

/**
 * The bot in this process (to read its heap or its poller), on a sqlite store in a fresh folder, its
 * log discarded, ticking only on demand; `stop` also removes the folder.
 */
export async function startBotInProcess(env: Record<string, string>): Promise<RunningApp & { stopAll(): Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-in-process-'));
  const result = loadConfig({
    SLACK_BOT_TOKEN: BOT_TOKEN,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    PORT: '0',
    STORE_URL: `sqlite://${path.join(dir, 'store.sqlite')}`,
    POLL_SCHEDULE: '0 0 1 1 *', // ticks on demand only
    ...env,
  });
  if (!result.ok) throw new Error(result.problems.join('; '));
  const secrets = new SecretRegistry();
  const app = await startPixOps(result.config, {
    secrets,
    logger: createLogger({ level: 'info', secrets, destination: { write: () => undefined } }),
  });
  return {
    ...app,
    async stopAll() {
      await app.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
