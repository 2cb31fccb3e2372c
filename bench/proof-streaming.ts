import { randomBytes } from 'node:crypto';
import { submittedView, viewSubmission } from '../test/support/slack-payloads';
import { residentMemory, signedCommand, signedInteraction, startRig, until, type Figure } from './lib';

const FILES = Number(process.env.BENCH_FILES ?? 10);
const FILE_BYTES = 10 * 1024 * 1024;
const MiB = 1024 * 1024;

type View = { blocks: Array<{ type: string; block_id?: string; element?: Record<string, unknown> }> };

/**
 * Ten 10 MiB proofs from Slack to the Pix API through the bot (a process of its own): its peak
 * resident memory may grow by less than 64 MiB, i.e. the files are streamed, never held whole.
 */
export async function proofStreaming(): Promise<Figure[]> {
  const { slack, sandbox, bot, close } = await startRig('U0BENCH01');
  try {
    const files = Array.from({ length: FILES }, (_, i) =>
      slack.fileObject(
        slack.addFile({ id: `FBENCH${i}`, name: `proof-${i}.pdf`, mimetype: 'application/pdf', bytes: Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(FILE_BYTES - 9)]) }).id,
      ),
    );
    await signedCommand(bot.port, 'U0BENCH01', 'limit request', slack.responseUrl('open'), 'bench-open');
    const update = await until('the form', () => slack.calls.find((c) => c.method === 'views.update' && (c.args.view as View).blocks.some((b) => b.type === 'input')));
    const view = update.args.view as View & Record<string, unknown>;
    const values: Record<string, Record<string, unknown>> = {};
    for (const b of view.blocks.filter((x) => x.type === 'input')) {
      const el = b.element!;
      const id = String(el.action_id);
      if (el.type === 'static_select') values[b.block_id!] = { [id]: { type: 'static_select', selected_option: el.initial_option } };
      else if (el.type === 'file_input') values[b.block_id!] = { [id]: { type: 'file_input', files } };
      else values[b.block_id!] = { [id]: { type: 'plain_text_input', value: b.block_id === 'pixDayLimit' ? '999.999,99' : (el.initial_value ?? null) } };
    }

    const before = residentMemory(bot.pid);
    const started = Date.now();
    await signedInteraction(bot.port, viewSubmission('U0BENCH01', submittedView(view, String(update.args.view_id), values)));
    await until('the thread root', () => slack.calls.find((c) => c.method === 'chat.postMessage'), 120_000);
    const seconds = (Date.now() - started) / 1000;
    const after = residentMemory(bot.pid);
    const uploads = ((await (await fetch(`${sandbox.url}/sandbox/calls`)).json()) as { calls: Array<{ path: string; body: { size?: number } }> }).calls.filter(
      (c) => c.path === '/api/v1/files',
    );
    const allThere = uploads.length === FILES && uploads.every((u) => u.body.size === FILE_BYTES);
    const growth = (after.peak - before.rss) / MiB;
    return [
      { name: `proof streaming: ${FILES} × 10 MiB uploaded intact`, value: allThere ? `${uploads.length} files in ${seconds.toFixed(1)} s` : `${uploads.length} files`, bound: `${FILES} files`, ok: allThere },
      { name: 'proof streaming: bot peak RSS growth', value: `${growth.toFixed(1)} MiB`, bound: '< 64 MiB', ok: growth < 64 },
    ];
  } finally {
    await close();
  }
}
