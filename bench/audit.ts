import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { csvHead } from '../src/audit/csv';
import type { AuditEntry } from '../src/audit/entry';
import { addDays, parseIsoDate, saoPauloStartOfDay } from '../src/domain/sao-paulo-date';
import { SlackStandInUploads } from '../src/slack-standin/uploads';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { DEFAULT_NAMESPACE, openStore } from '../src/store';
import { EXPORT_BATCH, MAX_BATCH } from '../src/store/audit-trail';
import { absoluteFigure, countsFigure, infoFigure, ratioFigure } from './judge';
import {
  ACK_WARM_UPS,
  BOT_TOKEN,
  benchmark,
  type Figure,
  MiB,
  memoryFromNow,
  messageFrom,
  onSlack,
  pairedAckRounds,
  pairedAckRoundsMs,
  percentile,
  pinCpus,
  residentMemory,
  SLACK_ACK_MS,
  START_BOUND_MS,
  START_WAIT_MS,
  signedCommand,
  spawnNode,
  startBotProcess,
  startSandboxProcess,
  until,
  untilAtRest,
  WAIT_MARGIN,
} from './lib';
import { setupMs } from './poll-cycle';

const CONCURRENT = 200;
const ROUNDS = Number(process.env.BENCH_AUDIT_ROUNDS ?? 20);
const ACK_BOUND = 1.05;
const EXPORT_ENTRIES = 100_000;
const EXPORT_ROUNDS = Number(process.env.BENCH_EXPORT_ROUNDS ?? 3);
const EXPORT_GROWTH_BOUND_MIB = 32;
/**
 * The CSV's size: the entries are the same every run (sampleEntry), so their export is too, to the
 * byte; a change of the export's columns or quoting changes it, and this bound with it.
 */
const EXPORT_BYTES = 17_022_961;
/** The São Paulo day the seeded entries fall on (sampleEntry), exported whole. */
const EXPORT_DAY = '2026-03-05';
/** One export's peak resident memory growth (MiB), and what reached Slack's upload URL. */
interface Exported {
  growth: number;
  intact: boolean;
  bytes: number;
  lines: number;
}
/** Entries appended at once while seeding. */
const SEED_BATCH = 10_000;
const VIEWER = 'U0BENCH01';
const ADMIN = 'U0BENCHADM';
/** A trail read whole: every entry written up to now, and a day past it, so that no clock step hides one. */
const A_DAY_MS = 24 * 60 * 60 * 1000;

/** How many entries a trail holds, read in batches (as the export does). */
async function countEntries(url: string): Promise<number> {
  const store = await openStore({ url });
  try {
    let n = 0;
    for await (const batch of (await store.audit.snapshot(new Date(0), new Date(Date.now() + A_DAY_MS))).batches()) n += batch.length;
    return n;
  } finally {
    await store.close();
  }
}

/**
 * What recording costs an acknowledgement: 200 signed `/pix help` at once, each one recorded, against
 * the same bot recording nothing (bench/bot-no-audit.ts, twice: the null's second baseline), all in
 * child processes on sqlite, in paired rounds (see pairedAckRounds). The bound: at most 5 % slower.
 */
export const auditAck = benchmark(
  // Four processes started (the sandbox, the three bots), then the rounds.
  WAIT_MARGIN * 4 * START_BOUND_MS + pairedAckRoundsMs(ROUNDS),
  async (): Promise<Figure[]> => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-audit-'));
    const slack = await new SlackStandIn().start();
    const sandbox = await startSandboxProcess();
    const pinning = pinCpus();
    const env = (file: string) => ({
      SLACK_API_URL: slack.apiUrl,
      LOG_LEVEL: 'info',
      PIX_API_URL: sandbox.url,
      PIX_APP_ID: sandbox.main.mainAppId,
      STORE_URL: `sqlite://${path.join(dir, file)}`,
      ACCESS_VIEWERS: VIEWER,
      POLL_SCHEDULE: '0 0 1 1 *',
    });
    const on = await startBotProcess(env('on.sqlite'), 'src/main.js', pinning?.apps);
    const off = await startBotProcess(env('off.sqlite'), 'bench/bot-no-audit.js', pinning?.apps);
    // The null's second baseline: the bot recording nothing, against itself.
    const offAgain = await startBotProcess(env('off-again.sqlite'), 'bench/bot-no-audit.js', pinning?.apps);
    let stopped = false;
    try {
      const result = await pairedAckRounds({
        ours: on,
        theirs: off,
        theirsAgain: offAgain,
        userId: VIEWER,
        text: 'help',
        slack,
        rounds: ROUNDS,
        concurrent: CONCURRENT,
      });
      await Promise.all([on.stop(), off.stop(), offAgain.stop()]);
      stopped = true;
      // Warm-up (20 + one burst) and the rounds: every command one entry with the trail on, none off.
      const sent = ACK_WARM_UPS + CONCURRENT + ROUNDS * CONCURRENT;
      const recorded = await countEntries(env('on.sqlite').STORE_URL);
      const baseline = (await countEntries(env('off.sqlite').STORE_URL)) + (await countEntries(env('off-again.sqlite').STORE_URL));
      const figure = (p: 50 | 99, label: string): Figure => {
        const pooled = result.pooled(p);
        return ratioFigure({
          name: `audit trail on vs off: slash ack ${label} (${CONCURRENT} at once, ${ROUNDS} paired rounds)`,
          ratios: result.ratios(p),
          nulls: result.nulls(p),
          bound: ACK_BOUND,
          detail: `all rounds: ${pooled.ours.toFixed(0)} / ${pooled.theirs.toFixed(0)} ms`,
        });
      };
      return [
        figure(50, 'median'),
        figure(99, 'p99'),
        countsFigure({
          name: 'audit trail on vs off: entries recorded (one per command)',
          value: `${recorded} of ${sent} (off: ${baseline})`,
          bound: `${sent} (off: 0)`,
          ok: recorded === sent && baseline === 0,
        }),
      ];
    } finally {
      pinning?.restore();
      if (!stopped) await Promise.all([on.stop(), off.stop(), offAgain.stop()]);
      await sandbox.stop();
      await slack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

/** Entries of one São Paulo day (2026-03-05), every field used, a key masked as the app masks it. */
function sampleEntry(i: number): AuditEntry {
  const account = `6840aeca23c0d1fe${String(i % 100_000).padStart(8, '0')}`;
  return {
    time: new Date(Date.parse('2026-03-05T03:00:00.000Z') + i * 800).toISOString(),
    user: `U0USER${String(i % 50).padStart(3, '0')}`,
    role: i % 3 === 0 ? 'admin' : 'operator',
    action: i % 2 === 0 ? '/pix withdraw-key' : 'action:pix_key_delete_confirm',
    target: `account:${account} key:***.982.247-**`,
    pixMethod: i % 2 === 0 ? 'POST' : 'DELETE',
    pixPath: i % 2 === 0 ? '/api/v1/pix-keys/withdraw' : '/api/v1/pix-keys/***.982.247-**',
    pixStatus: 200,
    ...(i % 10 === 0 ? { maker: 'U0MAKER01', checker: 'U0CHECK01' } : {}),
    outcome: 'ok',
    ...(i % 7 === 0 ? { detail: 'attempt 2, "retried"' } : {}),
  };
}

/**
 * `/pix audit export` of 100,000 entries (one day) from a bot in a process of its own, on sqlite: the
 * CSV is streamed from the store to Slack's upload URL, so the bot's peak resident memory may grow by
 * less than 32 MiB whatever the export's size (the CSV itself is about 16 MiB). Its peak is reset
 * just before the command (`/proc/<pid>/clear_refs`), the bot warmed up and at rest; the median of
 * three rounds, each a fresh bot. The export measured is the bot's first: a second reuses what the
 * first left resident, and would not show a CSV held whole in memory (bench/README.md). Beside it, for
 * information, the same export by a minimal exporter (bench/minimal-exporter.ts, a plain Node script,
 * no app around it), a fresh process each round, measured the same way.
 */
export const auditExport = benchmark(
  // The sandbox's start and the seeding (the trail's writes, one after another); each round, a bot's
  // start, its warm-up answer, the work left after it (bounded as a start) and the export (the
  // trail's reads, one after another), each write or read counted as a set-up call; then the same for
  // the minimal exporter, its own start answered by Slack.
  WAIT_MARGIN *
    (START_BOUND_MS +
      setupMs(EXPORT_ENTRIES / MAX_BATCH, 1) +
      EXPORT_ROUNDS * 2 * (2 * START_BOUND_MS + SLACK_ACK_MS + setupMs(EXPORT_ENTRIES / EXPORT_BATCH, 1))),
  async (): Promise<Figure[]> => {
    const dir = mkdtempSync(path.join(tmpdir(), 'pix-ops-bench-export-'));
    const url = `sqlite://${path.join(dir, 'store.sqlite')}`;
    const slack = await new SlackStandIn().start();
    const uploads = await new SlackStandInUploads(slack).start();
    const sandbox = await startSandboxProcess();
    try {
      const seedingStarted = Date.now();
      const seeding = await openStore({ url });
      for (let from = 0; from < EXPORT_ENTRIES; from += SEED_BATCH) {
        await Promise.all(Array.from({ length: SEED_BATCH }, (_, i) => seeding.audit.append(sampleEntry(from + i))));
      }
      await seeding.close();
      // The export reads back what the seeding wrote, and streams it: given the margin over what writing took.
      const exportWaitMs = WAIT_MARGIN * (Date.now() - seedingStarted);

      /** What reached Slack's upload URL: the file's bytes, whole and as announced, and its records. */
      const received = (fileId: string) => {
        const upload = uploads.uploads.get(fileId)!;
        uploads.uploads.delete(fileId);
        const lines = upload.bytes!.toString('utf8').split('\r\n').length - 2;
        return { intact: upload.bytes!.length === upload.length && lines === EXPORT_ENTRIES, bytes: upload.bytes!.length, lines };
      };

      const botExport = async (r: number): Promise<Exported & { seconds: number }> => {
        const bot = await startBotProcess({
          SLACK_API_URL: slack.apiUrl,
          PIX_API_URL: sandbox.url,
          PIX_APP_ID: sandbox.main.mainAppId,
          STORE_URL: url,
          ACCESS_ADMINS: ADMIN,
          POLL_SCHEDULE: '0 0 1 1 *',
        });
        try {
          // Warm: the command path, the store's connections, Slack's client. The answer is the bot's
          // first fetch (Bolt's respond), and once it has parsed Slack's reply V8 compiles undici's
          // HTTP parser (WebAssembly) with TurboFan on a worker thread: about 30 MiB for half a second,
          // once in a process's life. The export is measured from a bot at rest, that compilation over.
          await signedCommand(bot.port, ADMIN, 'audit 1', slack.responseUrl(`warm-${r}`));
          await until('the warm-up answer', () => slack.responsesTo(`warm-${r}`)[0], WAIT_MARGIN * SLACK_ACK_MS, onSlack(slack));
          await untilAtRest('the bot at rest after its warm-up', bot.pid, WAIT_MARGIN * START_BOUND_MS);
          const completes = slack.callsOf('files.completeUploadExternal').length;
          const before = memoryFromNow(bot.pid);
          const started = Date.now();
          await signedCommand(bot.port, ADMIN, `audit export ${EXPORT_DAY} ${EXPORT_DAY}`, slack.responseUrl(`export-${r}`));
          const complete = await until(
            'the upload completed',
            () => slack.callsOf('files.completeUploadExternal')[completes],
            exportWaitMs,
            onSlack(slack),
          );
          const seconds = (Date.now() - started) / 1000;
          const after = residentMemory(bot.pid);
          return { seconds, growth: (after.peak - before) / MiB, ...received((complete.args.files as Array<{ id: string }>)[0]!.id) };
        } finally {
          await bot.stop();
        }
      };

      // The minimal exporter, a fresh process each round: its file open and Slack answered (its first
      // fetch, as the bot's warm-up), at rest, its peak reset, then the same day's export.
      const minimalExport = async (): Promise<Exported> => {
        const child = spawnNode(
          'bench/minimal-exporter.js',
          {
            MINIMAL_EXPORTER: JSON.stringify({
              file: path.join(dir, 'store.sqlite'),
              namespace: DEFAULT_NAMESPACE,
              slackApiUrl: slack.apiUrl,
              botToken: BOT_TOKEN,
              admin: ADMIN,
            }),
          },
          [],
          undefined,
          { ipc: true },
        );
        try {
          await messageFrom(child, 'the minimal exporter', 'ready', START_WAIT_MS);
          const pid = child.process.pid!;
          await untilAtRest('the minimal exporter at rest', pid, WAIT_MARGIN * START_BOUND_MS);
          const before = memoryFromNow(pid);
          const done = messageFrom(child, 'the minimal exporter', 'done', exportWaitMs);
          const day = parseIsoDate(EXPORT_DAY)!;
          child.process.send({
            from: saoPauloStartOfDay(day).toISOString(),
            to: saoPauloStartOfDay(addDays(day, 1)).toISOString(),
            head: csvHead('en'),
          });
          const { fileId } = (await done) as { fileId: string };
          const after = residentMemory(pid);
          return { growth: (after.peak - before) / MiB, ...received(fileId) };
        } finally {
          await child.stop();
        }
      };

      const rounds: Array<Exported & { seconds: number }> = [];
      const minimal: Exported[] = [];
      for (let r = 0; r < EXPORT_ROUNDS; r++) {
        // Each first in every other round: a drift of the machine weighs on both alike.
        if (r % 2 === 1) minimal.push(await minimalExport());
        rounds.push(await botExport(r));
        if (r % 2 === 0) minimal.push(await minimalExport());
      }
      const growths = rounds.map((r) => r.growth);
      const median = percentile(growths, 50);
      return [
        countsFigure({
          name: `audit export: ${EXPORT_ENTRIES.toLocaleString('en')} entries as CSV to the admin's DM (${EXPORT_ROUNDS} rounds), entries and bytes`,
          value: `${rounds.map((r) => r.lines).join(', ')} entries; ${rounds.map((r) => r.bytes).join(', ')} bytes (median ${percentile(
            rounds.map((r) => r.seconds),
            50,
          ).toFixed(1)} s)`,
          bound: `${EXPORT_ENTRIES} and ${EXPORT_BYTES} bytes each, as announced`,
          ok: rounds.every((r) => r.intact && r.bytes === EXPORT_BYTES),
        }),
        countsFigure({
          name: `audit export: the minimal exporter's CSV, entries and bytes (${EXPORT_ROUNDS} runs)`,
          value: `${minimal.map((m) => m.lines).join(', ')} entries; ${minimal.map((m) => m.bytes).join(', ')} bytes`,
          bound: `the bot's: ${EXPORT_ENTRIES} and ${EXPORT_BYTES} bytes each`,
          ok: minimal.every((m) => m.intact && m.bytes === EXPORT_BYTES),
        }),
        absoluteFigure({
          name: `audit export: bot peak RSS growth (median of ${EXPORT_ROUNDS}; largest ${Math.max(...growths).toFixed(1)} MiB)`,
          value: median,
          unit: 'MiB',
          op: '<',
          bound: EXPORT_GROWTH_BOUND_MIB,
          digits: 1,
        }),
        infoFigure(
          `audit export: a minimal exporter's peak RSS growth, the same export (median of ${EXPORT_ROUNDS})`,
          `${percentile(
            minimal.map((m) => m.growth),
            50,
          ).toFixed(
            1,
          )} MiB (each ${minimal.map((m) => m.growth.toFixed(1)).join(', ')}; the bot's ${growths.map((g) => g.toFixed(1)).join(', ')})`,
        ),
      ];
    } finally {
      await sandbox.stop();
      await uploads.close();
      await slack.close();
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
