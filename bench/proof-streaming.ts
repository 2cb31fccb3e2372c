import { randomBytes } from 'node:crypto';
import { submittedView, viewSubmission } from '../test/support/slack-payloads';
import {
  benchmark,
  type Figure,
  memoryFromNow,
  PIX_CALL_MS,
  percentile,
  RIG_START_MS,
  residentMemory,
  signedCommand,
  signedInteraction,
  startRig,
  until,
  WAIT_MARGIN,
} from './lib';

const FILES = Number(process.env.BENCH_FILES ?? 10);
const FILE_BYTES = 10 * 1024 * 1024;
const MiB = 1024 * 1024;

type View = { blocks: Array<{ type: string; block_id?: string; element?: Record<string, unknown> }> };

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const GROWTH_BOUND_MIB = 36;
/** The form follows the bot's reads of the accounts and the limits (in parallel): one Pix call's time. */
const FORM_WAIT_MS = PIX_CALL_MS;
/** The root follows each proof's upload and the request itself, one Pix call after another. */
const ROOT_WAIT_MS = (FILES + 1) * PIX_CALL_MS;

/**
 * Ten 10 MiB proofs from Slack to the Pix API through the bot (a process of its own): its peak
 * resident memory may grow by less than 36 MiB, i.e. the files are streamed, never held whole. What
 * grows is mostly the chunks already sent and not yet collected, so the figure varies with the
 * collector's timing (one round in ten or so doubles it): the median of five rounds, each with a
 * fresh bot. The peak is counted from the upload's start (memoryFromNow), not from the bot's: its
 * start-up peaks higher than it then runs.
 */
export const proofStreaming = benchmark(
  // Nothing bounds the upload's time (the figure is memory): each round at the longest the bot allows it.
  ROUNDS * (WAIT_MARGIN * RIG_START_MS + FORM_WAIT_MS + ROOT_WAIT_MS),
  async (): Promise<Figure[]> => {
    const rounds: Array<{ intact: boolean; uploads: number; seconds: number; growth: number }> = [];
    for (let i = 0; i < ROUNDS; i++) rounds.push(await oneRound());
    const growths = rounds.map((r) => r.growth);
    const median = percentile(growths, 50);
    const intact = rounds.every((r) => r.intact);
    return [
      {
        name: `proof streaming: ${FILES} × 10 MiB uploaded intact (${ROUNDS} rounds)`,
        value: intact
          ? `${FILES} files in ${percentile(
              rounds.map((r) => r.seconds),
              50,
            ).toFixed(1)} s`
          : `${Math.min(...rounds.map((r) => r.uploads))} files`,
        bound: `${FILES} files`,
        ok: intact,
      },
      {
        name: `proof streaming: bot peak RSS growth (median of ${ROUNDS}; largest ${Math.max(...growths).toFixed(1)} MiB)`,
        value: `${median.toFixed(1)} MiB`,
        bound: `≤ ${GROWTH_BOUND_MIB} MiB`,
        ok: median <= GROWTH_BOUND_MIB,
      },
    ];
  },
);

async function oneRound(): Promise<{ intact: boolean; uploads: number; seconds: number; growth: number }> {
  const { slack, sandbox, bot, close } = await startRig('U0BENCH01');
  try {
    const files = Array.from({ length: FILES }, (_, i) =>
      slack.fileObject(
        slack.addFile({
          id: `FBENCH${i}`,
          name: `proof-${i}.pdf`,
          mimetype: 'application/pdf',
          bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(FILE_BYTES - 9)]),
        }).id,
      ),
    );
    await signedCommand(bot.port, 'U0BENCH01', 'limit request', slack.responseUrl('open'), 'bench-open');
    const update = await until(
      'the form',
      () => slack.calls.find((c) => c.method === 'views.update' && (c.args.view as View).blocks.some((b) => b.type === 'input')),
      FORM_WAIT_MS,
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

    const before = memoryFromNow(bot.pid);
    const started = Date.now();
    await signedInteraction(bot.port, viewSubmission('U0BENCH01', submittedView(view, String(update.args.view_id), values)));
    await until('the thread root', () => slack.calls.find((c) => c.method === 'chat.postMessage'), ROOT_WAIT_MS);
    const seconds = (Date.now() - started) / 1000;
    const after = residentMemory(bot.pid);
    const uploads = (
      (await (await fetch(`${sandbox.url}/sandbox/calls`)).json()) as { calls: Array<{ path: string; body: { size?: number } }> }
    ).calls.filter((c) => c.path === '/api/v1/files');
    return {
      intact: uploads.length === FILES && uploads.every((u) => u.body.size === FILE_BYTES),
      uploads: uploads.length,
      seconds,
      growth: (after.peak - before) / MiB,
    };
  } finally {
    await close();
  }
}
