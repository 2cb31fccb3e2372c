import type { SlackApiCall } from '../../src/slack-standin/web-api';
import { type Harness, messageText, startHarness } from '../support/harness';
import { sendInteraction, submittedView, viewSubmission } from '../support/slack-payloads';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0CAPOPER';
const CHANNEL = 'C0CAPFILE';
const MIB = 1024 * 1024;

type View = Record<string, unknown> & { callback_id: string; private_metadata: string; blocks: Array<{ block_id?: string }> };

/** A real PDF start, padded to `bytes`. */
const pdfOf = (bytes: number) => {
  const head = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n');
  return Buffer.concat([head, Buffer.alloc(bytes - head.length, 0x20)]);
};

describe('the 10 MiB cap is counted on the bytes streamed, not taken from Slack’s size', () => {
  let h: Harness;
  let counter = 0;
  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR });
  });
  afterAll(() => h.close());

  /** Dispute evidence with one file whose metadata says 1 KiB; returns the modal's texts and the Pix calls. */
  const sendEvidence = async (file: { bytes: Buffer; chunked: boolean }) => {
    const disputeId = h.sandbox.companies.main.disputeId;
    const slackBefore = h.slack.calls.length;
    await h.slash(OPERATOR, `dispute-evidence ${disputeId}`, { channelId: CHANNEL });
    const open = await waitFor('views.open', () => h.slack.calls.slice(slackBefore).find((c) => c.method === 'views.open'));
    const viewId = (open.response as { view: { id: string } }).view.id;
    const slackFile = h.slack.fileObject(
      h.slack.addFile({
        id: `F${++counter}CAP`,
        name: 'big.pdf',
        mimetype: 'application/pdf',
        bytes: file.bytes,
        reportedSize: 1024,
        chunked: file.chunked,
      }).id,
    );
    const pixBefore = h.sandbox.calls.length;
    const res = await sendInteraction(
      h,
      viewSubmission(
        OPERATOR,
        submittedView(open.args.view as View, viewId, {
          documents: { files: { type: 'file_input', files: [slackFile] } },
          note: { text: { type: 'plain_text_input', value: null } },
        }),
      ),
    );
    // Slack's size passes the check: the submission goes ahead.
    expect(res.body).toMatchObject({ response_action: 'update' });
    const texts = () =>
      h.slack.calls
        .slice(slackBefore)
        .filter((c: SlackApiCall) => c.method === 'views.update' && c.args.view_id === viewId)
        .map((c) => messageText(c.args.view));
    const shown = await waitFor(
      'the outcome in the modal',
      () => texts().find((t) => /Could not|larger than|DISPUTE_EVIDENCE_FILE_ID/.test(t)),
      15_000,
    );
    return { shown, pix: () => h.sandbox.calls.slice(pixBefore), disputeId };
  };

  test('streamed without a Content-Length: cut off past 10 MiB, so the Pix API never receives a whole file', async () => {
    const { shown, pix, disputeId } = await sendEvidence({ bytes: pdfOf(10 * MIB + 1), chunked: true });
    expect(shown).toContain('“big.pdf” is larger than 10 MiB');
    expect(shown).toContain('Nothing was attached to the dispute.');
    // The upload was started and cut short: the Pix API logged no file (no complete multipart body).
    const uploads = pix().filter((c) => c.path === '/api/v1/files');
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.body).toBeUndefined();
    expect(pix().filter((c) => c.path === `/api/v1/dispute/${disputeId}/evidence`)).toEqual([]);
  });

  test('with a Content-Length over 10 MiB: refused before anything is sent to the Pix API', async () => {
    const { shown, pix } = await sendEvidence({ bytes: pdfOf(10 * MIB + 1), chunked: false });
    expect(shown).toContain('“big.pdf” is larger than 10 MiB');
    expect(pix()).toEqual([]);
  });

  test('exactly 10 MiB, streamed: sent whole', async () => {
    const { shown, pix } = await sendEvidence({ bytes: pdfOf(10 * MIB), chunked: true });
    // The sandbox refuses evidence by fileId without the feature: the file itself went up whole.
    expect(shown).toContain('DISPUTE_EVIDENCE_FILE_ID');
    const upload = pix().find((c) => c.path === '/api/v1/files');
    expect(upload?.body).toMatchObject({ size: 10 * MIB });
  });
});
