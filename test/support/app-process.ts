import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { assertFreshBuild } from './dist-build';
import { BOT_TOKEN, SIGNING_SECRET } from './harness';
import { waitFor } from './wait';

/** The compiled entry point, as `npm start` runs it (built by `pretest`). */
export const MAIN = path.resolve(__dirname, '../../dist/src/main.js');

export interface AppProcess {
  child: ChildProcess;
  pid: number;
  /** The HTTP port (HTTP mode). */
  port: number;
  eventsUrl: string;
  /** Every line written so far (pino JSON lines, and anything else). */
  output(): string;
  /** The JSON log lines, parsed. */
  logs(): Array<Record<string, unknown> & { msg?: string }>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
  /** SIGTERM, and SIGKILL if it is not gone after a while. */
  stop(): Promise<void>;
}

/** Starts the bot in a child process in HTTP mode (PORT=0) and waits for its ready line. */
export async function startAppProcess(
  env: Record<string, string>,
  options: { cwd?: string; readyTimeoutMs?: number } = {},
): Promise<AppProcess> {
  assertFreshBuild();
  const child = spawn(process.execPath, [MAIN], {
    cwd: options.cwd,
    env: {
      PATH: process.env.PATH ?? '',
      SLACK_BOT_TOKEN: BOT_TOKEN,
      SLACK_SIGNING_SECRET: SIGNING_SECRET,
      PORT: '0',
      LOG_LEVEL: 'debug',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const logs = () =>
    out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return [];
        }
      });
  let gone = false;
  void exited.then(() => (gone = true));
  const ready = await waitFor(
    'the app process to be ready',
    () => {
      if (gone) throw new Error(`the app process exited:\n${out}`);
      return logs().find((l) => String(l.msg).includes('Pix Ops is running'));
    },
    options.readyTimeoutMs ?? 15_000,
  ).catch((err: unknown) => {
    child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${out}`);
  });
  const port = Number(ready.port);
  return {
    child,
    pid: child.pid!,
    port,
    eventsUrl: `http://127.0.0.1:${port}/slack/events`,
    output: () => out,
    logs,
    exited,
    kill: (signal) => {
      if (!gone) child.kill(signal);
    },
    async stop() {
      if (gone) return;
      const timer = setTimeout(() => child.kill('SIGKILL'), 12_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(timer);
    },
  };
}
