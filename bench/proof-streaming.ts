import { randomBytes } from 'node:crypto';
import { SlackStandIn } from '../src/slack-standin/web-api';
import { submittedView, viewSubmission } from '../test/support/slack-payloads';
import { countsFigure, ratioFigure } from './judge';
import {
  BOT_TOKEN,
  benchmark,
  type Figure,
  MiB,
  memoryFromNow,
  messageFrom,
  onSlack,
  PIX_CALL_MS,
  pairedRounds,
  percentile,
  RIG_START_MS,
  residentMemory,
  START_WAIT_MS,
  signedCommand,
  signedInteraction,
  spawnNode,
  startRig,
  startSandboxProcess,
  until,
  WAIT_MARGIN,
} from './lib';

const FILES = Number(process.env.BENCH_FILES ?? 10);
const FILE_BYTES = 10 * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const RATIO_BOUND = 1.25;

type View = { blocks: Array<{ type: string; block_id?: string; element?: Record<string, unknown> }> };

/** The form follows the bot's reads of the accounts and the limits (in parallel): one Pix call's time. */
const FORM_WAIT_MS = PIX_CALL_MS;
/** The root follows each proof's upload and the request itself, one Pix call after another. */
const ROOT_WAIT_MS = (FILES + 1) * PIX_CALL_MS;
/** The minimal streamer's uploads, one Pix call each. */
const STREAM_WAIT_MS = FILES * PIX_CALL_MS;

/** What one transfer of the proofs left: its peak resident memory's growth, and what reached the Pix API. */
interface Transfer {
  growth: number;
  uploads: number;
  intact: boolean;
}

/** The proofs as Slack holds them: `FILES` PDFs of 10 MiB in the stand-in. */
function addProofs(slack: SlackStandIn) {
  return Array.from({ length: FILES }, (_, i) =>
    slack.fileObject(
      slack.addFile({
        id: `FBENCH${i}`,
        name: `proof-${i}.pdf`,
        mimetype: 'application/pdf',
        bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(FILE_BYTES - 9)]),
      }).id,
    ),
  );
}

/** The uploads the sandbox received since `from` (its call log's index), and whether each is whole. */
async function uploadsAt(sandboxUrl: string, from = 0): Promise<{ uploads: number; intact: boolean }> {
  const { calls } = (await (await fetch(`${sandboxUrl}/sandbox/calls`)).json()) as {
    calls: Array<{ path: string; body: { size?: number } }>;
  };
  const uploads = calls.slice(from).filter((c) => c.path === '/api/v1/files');
  return { uploads: uploads.length, intact: uploads.length === FILES && uploads.every((u) => u.body.size === FILE_BYTES) };
}

/**
 * Ten 10 MiB proofs from Slack to the Pix API through the bot (a process of its own), against the
 * same transfer made by a minimal streamer (bench/minimal-streamer.ts: a plain Node script, the same
 * libraries, no app around it), in paired rounds (lib.ts's pairedRounds: the streamer twice, its
 * second run over its first the null ratio), each run a fresh process: the bot's peak resident memory
 * may grow by at most 1.25× the streamer's. Both peaks are counted from the transfer's start
 * (memoryFromNow), not from the process's: a start-up peaks higher than a transfer.
 */
export const proofStreaming = benchmark(
  // Nothing bounds the upload's time (the figure is memory): each round, the bot's run at the
  // longest the bot allows it, the streamer's two at the longest its calls take.
  WAIT_MARGIN * (START_WAIT_MS + ROUNDS * (RIG_START_MS + FORM_WAIT_MS + ROOT_WAIT_MS + 2 * (START_WAIT_MS + STREAM_WAIT_MS))),
  async (): Promise<Figure[]> => {
    // The streamer's Slack and Pix API, for every one of its runs.
    const slack = await new SlackStandIn().start();
    slack.botToken = BOT_TOKEN;
    const files = addProofs(slack);
    const sandbox = await startSandboxProcess();
    const bot: Transfer[] = [];
    const streamer: Transfer[] = [];
    try {
      const rounds = await pairedRounds(ROUNDS, {
        ours: async () => {
          const t = await botTransfer();
          bot.push(t);
          return t.growth;
        },
        base: async () => {
          const t = await streamerTransfer(files, sandbox);
          streamer.push(t);
          return t.growth;
        },
      });
      const named = (ts: Transfer[]) => ts.map((t) => t.uploads).join(', ');
      return [
        countsFigure({
          name: `proof streaming: ${FILES} × 10 MiB uploaded whole (${ROUNDS} rounds), uploads a run, the bot then the streamer`,
          value: `${named(bot)}; ${named(streamer)}`,
          bound: `${FILES} a run, each ${FILE_BYTES} bytes`,
          ok: [...bot, ...streamer].every((t) => t.intact),
        }),
        ratioFigure({
          name: `proof streaming: peak RSS growth, bot / minimal streamer (median of ${ROUNDS} paired rounds)`,
          ratios: rounds.ratios,
          nulls: rounds.nulls,
          bound: RATIO_BOUND,
          detail: `${percentile(rounds.ours, 50).toFixed(1)} / ${percentile(rounds.base, 50).toFixed(1)} MiB, largest ${Math.max(...rounds.ours).toFixed(1)} / ${Math.max(...rounds.base, ...rounds.again).toFixed(1)}`,
        }),
      ];
    } finally {
      await sandbox.stop();
      await slack.close();
    }
  },
);

/** The minimal streamer, a fresh process: ready, its peak reset, then the transfer. */
async function streamerTransfer(
  files: ReturnType<typeof addProofs>,
  sandbox: { url: string; main: { mainAppId: string } },
): Promise<Transfer> {
  const from = ((await (await fetch(`${sandbox.url}/sandbox/calls`)).json()) as { calls: unknown[] }).calls.length;
  const child = spawnNode('bench/minimal-streamer.js', {}, [], undefined, { ipc: true });
  try {
    const told = (what: 'ready' | 'done', waitMs: number) => messageFrom(child, 'the minimal streamer', what, waitMs);
    await told('ready', START_WAIT_MS);
    const before = memoryFromNow(child.process.pid!);
    const done = told('done', STREAM_WAIT_MS);
    child.process.send({
      files: files.map((f) => ({ url: String(f.url_private_download), name: String(f.name), mimetype: String(f.mimetype) })),
      botToken: BOT_TOKEN,
      pixUrl: sandbox.url,
      appId: sandbox.main.mainAppId,
    });
    await done;
    const after = residentMemory(child.process.pid!);
    return { growth: (after.peak - before) / MiB, ...(await uploadsAt(sandbox.url, from)) };
  } finally {
    await child.stop();
  }
}

/** The bot, a fresh rig: the form opened, its peak reset, then the submission with the proofs, to the request's root. */
async function botTransfer(): Promise<Transfer> {
  const { slack, sandbox, bot, close } = await startRig('U0BENCH01');
  try {
    const files = addProofs(slack);
    await signedCommand(bot.port, 'U0BENCH01', 'limit request', slack.responseUrl('open'), 'bench-open');
    const update = await until(
      'the form',
      () => slack.calls.find((c) => c.method === 'views.update' && (c.args.view as View).blocks.some((b) => b.type === 'input')),
      FORM_WAIT_MS,
      onSlack(slack),
    );
    const view = update.args.view as View & Record<string, unknown>;
    const values: Record<string, Record<string, unknown>> = {};
    for (const b of view.blocks.filter((x) => x.type === 'input')) {
      const el = b.element!;
      const id = String(el.action_id);
      if (el.type === 'static_select') values[b.block_id!] = { [id]: { type: 'static_select', selected_option: el.initial_option } };
      else if (el.type === 'file_input') values[b.block_id!] = { [id]: { type: 'file_input', files } };
      else
        values[b.block_id!] = {
          [id]: { type: 'plain_text_input', value: b.block_id === 'pixDayLimit' ? '999.999,99' : (el.initial_value ?? null) },
        };
    }
    const from = ((await (await fetch(`${sandbox.url}/sandbox/calls`)).json()) as { calls: unknown[] }).calls.length;
    const before = memoryFromNow(bot.pid);
    await signedInteraction(bot.port, viewSubmission('U0BENCH01', submittedView(view, String(update.args.view_id), values)));
    await until('the thread root', () => slack.calls.find((c) => c.method === 'chat.postMessage'), ROOT_WAIT_MS, onSlack(slack));
    const after = residentMemory(bot.pid);
    return { growth: (after.peak - before) / MiB, ...(await uploadsAt(sandbox.url, from)) };
  } finally {
    await close();
  }
}
