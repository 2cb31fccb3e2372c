import { createHash } from 'node:crypto';
import type { SlackApiCall } from '../../src/slack-standin/web-api';
import { type Harness, messageText, startHarness } from '../support/harness';
import { sendInteraction, submittedView, viewSubmission } from '../support/slack-payloads';
import { waitFor } from '../support/wait';

const OPERATOR = 'U0DISPOP1';
const VIEWER = 'U0DISPVW1';
const STRANGER = 'U0NOBODY1';
const CHANNEL = 'C0DISPUTE';

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.alloc(64),
]);

type View = Record<string, unknown> & {
  callback_id: string;
  private_metadata: string;
  blocks: Array<{ block_id?: string; element?: Record<string, unknown> }>;
};

let fileCounter = 0;
function addFile(h: Harness, name: string, bytes: Buffer, mimetype = 'application/pdf') {
  return h.slack.fileObject(h.slack.addFile({ id: `F${++fileCounter}DISP`, name, mimetype, bytes }).id);
}

const values = (files: unknown[], note: string | null = null) => ({
  documents: { files: { type: 'file_input', files } },
  note: { text: { type: 'plain_text_input', value: note } },
});

describe('/pix dispute-evidence through the real app', () => {
  let h: Harness;
  let disputeId: string;

  beforeAll(async () => {
    h = await startHarness({ ACCESS_OPERATORS: OPERATOR, ACCESS_VIEWERS: VIEWER });
    disputeId = h.sandbox.companies.main.disputeId;
  });
  afterAll(() => h.close());

  /** Runs the command; returns the modal Slack was asked to open and its id. */
  const openForm = async (userId = OPERATOR, id = disputeId) => {
    const before = h.slack.calls.length;
    const pixBefore = h.sandbox.calls.length;
    const res = await h.slash(userId, `dispute-evidence ${id}`, { channelId: CHANNEL });
    const open = await waitFor('views.open', () => h.slack.calls.slice(before).find((c) => c.method === 'views.open'));
    expect(res.status).toBe(200);
    expect(h.sandbox.calls.slice(pixBefore)).toEqual([]); // nothing to read before the form
    return { view: open.args.view as View, viewId: (open.response as { view: { id: string } }).view.id };
  };

  const submit = (form: { view: View; viewId: string }, v: ReturnType<typeof values>, userId = OPERATOR) =>
    sendInteraction(h, viewSubmission(userId, submittedView(form.view, form.viewId, v)));

  const modalTexts = (since: number, viewId: string) =>
    h.slack.calls
      .slice(since)
      .filter((c: SlackApiCall) => c.method === 'views.update' && c.args.view_id === viewId)
      .map((c) => messageText(c.args.view));

  const evidenceCalls = (since: number) =>
    h.sandbox.calls.slice(since).filter((c) => c.method === 'POST' && c.path === `/api/v1/dispute/${disputeId}/evidence`);
  const uploadCalls = (since: number) => h.sandbox.calls.slice(since).filter((c) => c.method === 'POST' && c.path === '/api/v1/files');

  test('the form: a file input and an optional note, for that dispute', async () => {
    const form = await openForm();
    expect(form.view.callback_id).toBe('dispute_evidence');
    expect(JSON.parse(form.view.private_metadata)).toEqual({ channelId: CHANNEL, disputeId });
    const documents = form.view.blocks.find((b) => b.block_id === 'documents')!;
    expect(documents.element).toMatchObject({ type: 'file_input', filetypes: ['pdf', 'png', 'jpg', 'jpeg', 'webp'] });
    expect(form.view.blocks.find((b) => b.block_id === 'note')).toMatchObject({ optional: true });
  });

  test('without the feature: files uploaded as DISPUTE_EVIDENCE, evidence sent by fileId, and the 403 explained in words', async () => {
    const form = await openForm();
    const pixBefore = h.sandbox.calls.length;
    const slackBefore = h.slack.calls.length;
    const res = await submit(form, values([addFile(h, 'receipt.pdf', PDF)]));
    expect(res.body).toMatchObject({ response_action: 'update' });
    const text = await waitFor('the refusal in the modal', () =>
      modalTexts(slackBefore, form.viewId).find((t) => t.includes('DISPUTE_EVIDENCE_FILE_ID_NOT_ALLOWED')),
    );
    expect(text).toContain('feature `DISPUTE_EVIDENCE_FILE_ID` is not enabled');
    expect(text).toContain('nothing was attached to the dispute');

    const [upload] = uploadCalls(pixBefore);
    expect(upload!.body).toMatchObject({
      purpose: 'DISPUTE_EVIDENCE',
      fileName: 'receipt.pdf',
      contentType: 'application/pdf',
      size: PDF.length,
    });
    const [evidence] = evidenceCalls(pixBefore);
    const documents = (evidence!.body as { documents: Array<Record<string, unknown>> }).documents;
    expect(documents).toHaveLength(1);
    expect(Object.keys(documents[0]!)).toEqual(['fileId']); // never url beside it
    expect(h.slack.calls.slice(slackBefore).filter((c) => c.method === 'chat.postMessage')).toEqual([]);
  });

  test('with the feature: each file uploaded, all attached by fileId, the note posted with the record', async () => {
    const { companyId } = h.sandbox.companies.main;
    await fetch(`${h.sandbox.url}/sandbox/companies/${companyId}/features`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ feature: 'DISPUTE_EVIDENCE_FILE_ID', enabled: true }),
    });
    const form = await openForm();
    const pixBefore = h.sandbox.calls.length;
    const slackBefore = h.slack.calls.length;
    const res = await submit(
      form,
      values([addFile(h, 'receipt.pdf', PDF), addFile(h, 'screen.png', PNG, 'image/png')], 'Customer got the goods on day 3.'),
    );
    expect(res.body).toMatchObject({ response_action: 'update' });
    expect(messageText(res.body)).toContain('Uploading evidence 1 of 2');

    const done = await waitFor('the result in the modal', () =>
      modalTexts(slackBefore, form.viewId).find((t) => t.includes('attached to dispute')),
    );
    expect(done).toContain('The 2 files are attached');

    const uploads = uploadCalls(pixBefore);
    expect(uploads.map((c) => c.body)).toEqual([
      expect.objectContaining({ purpose: 'DISPUTE_EVIDENCE', fileName: 'receipt.pdf', contentType: 'application/pdf' }),
      expect.objectContaining({ purpose: 'DISPUTE_EVIDENCE', fileName: 'screen.png', contentType: 'image/png' }),
    ]);
    const [evidence] = evidenceCalls(pixBefore);
    expect(evidence!.at).toBeGreaterThan(uploads[1]!.at - 1);
    const documents = (evidence!.body as { documents: Array<{ fileId: string }> }).documents;
    expect(documents.every((d) => Object.keys(d).join() === 'fileId')).toBe(true);

    // The dispute holds them, and the bytes that reached the service are the files' bytes.
    const dispute = (await (await fetch(`${h.sandbox.url}/sandbox/disputes/${disputeId}`)).json()) as {
      dispute: { evidences: Array<{ fileId?: string; fileName?: string }> };
    };
    const attached = dispute.dispute.evidences.slice(-2);
    expect(attached.map((e) => e.fileId)).toEqual(documents.map((d) => d.fileId));
    const stored = (await (await fetch(`${h.sandbox.url}/sandbox/files/${documents[0]!.fileId}`)).json()) as {
      file: { sha256: string; purpose: string };
    };
    expect(stored.file).toMatchObject({ purpose: 'DISPUTE_EVIDENCE', sha256: createHash('sha256').update(PDF).digest('hex') });

    const record = h.slack.calls.slice(slackBefore).find((c) => c.method === 'chat.postMessage' && c.args.channel === CHANNEL)!;
    const recordText = messageText(record.args);
    expect(recordText).toContain(disputeId);
    expect(recordText).toContain(`<@${OPERATOR}>`);
    expect(recordText).toContain('Customer got the goods on day 3.');
    expect(recordText).toContain(documents[0]!.fileId);
  });

  test('checked inline before anything is sent: no file, a file that is not an accepted type, one over 10 MiB', async () => {
    const form = await openForm();
    const cases: Array<[unknown[], RegExp]> = [
      [[], /at least one evidence file/],
      [[addFile(h, 'invoice.pdf', Buffer.from('plain text, not a PDF'))], /“invoice\.pdf” is not a PDF, PNG, JPEG or WebP/],
      [[addFile(h, 'huge.pdf', Buffer.concat([PDF, Buffer.alloc(11 * 1024 * 1024)]))], /“huge\.pdf” is 11\.0 MiB/],
    ];
    for (const [files, pattern] of cases) {
      const pixBefore = h.sandbox.calls.length;
      const res = await submit(form, values(files));
      expect(res.body?.response_action).toBe('errors');
      expect((res.body!.errors as Record<string, string>).documents).toMatch(pattern);
      expect(h.sandbox.calls.slice(pixBefore)).toEqual([]);
    }
  });

  test('a bad dispute id gets the usage line', async () => {
    const res = await h.slash(OPERATOR, 'dispute-evidence ../etc', { channelId: CHANNEL });
    const answer = await waitFor('the answer', () => h.slack.responsesTo(res.responseId)[0]);
    expect(messageText(answer.body)).toContain('That is not a dispute id.');
  });

  test.each([VIEWER, STRANGER])('%s cannot open the form, nor submit one', async (userId) => {
    const before = h.slack.calls.length;
    const res = await h.slash(userId, `dispute-evidence ${disputeId}`, { channelId: CHANNEL });
    expect(messageText(res.ack)).toMatch(/need the \*operator\* role/);
    expect(h.slack.calls.slice(before).filter((c) => c.method === 'views.open')).toEqual([]);

    // A submission forged (or kept from when the role was there) is refused inline too.
    const form = await openForm(OPERATOR);
    const pixBefore = h.sandbox.calls.length;
    const refused = await submit(form, values([addFile(h, 'receipt.pdf', PDF)]), userId);
    expect(refused.body?.response_action).toBe('errors');
    expect((refused.body!.errors as Record<string, string>).documents).toMatch(/need the operator role/);
    expect(h.sandbox.calls.slice(pixBefore)).toEqual([]);
  });

  test('the Pix API failing on upload: the API text, and nothing attached', async () => {
    const form = await openForm();
    await fetch(`${h.sandbox.url}/sandbox/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ fail: { status: 503, count: 5, pathPrefix: '/api/v1/files' } }),
    });
    const pixBefore = h.sandbox.calls.length;
    const slackBefore = h.slack.calls.length;
    try {
      await submit(form, values([addFile(h, 'receipt.pdf', PDF)]));
      const text = await waitFor('the failure in the modal', () =>
        modalTexts(slackBefore, form.viewId).find((t) => t.includes('Could not')),
      );
      expect(text).toContain('Could not upload the evidence files');
      expect(text).toContain('Sandbox fault');
      expect(text).toContain('Nothing was attached to the dispute.');
    } finally {
      await fetch(`${h.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
    }
    expect(evidenceCalls(pixBefore)).toEqual([]);
  });

  test('an unknown dispute: the API text, not found', async () => {
    const unknown = 'ffffffffffffffffffffffff';
    const form = await openForm(OPERATOR, unknown);
    const slackBefore = h.slack.calls.length;
    await submit(form, values([addFile(h, 'receipt.pdf', PDF)]));
    const text = await waitFor('the failure in the modal', () => modalTexts(slackBefore, form.viewId).find((t) => t.includes('Could not')));
    expect(text).toContain('Could not attach the evidence to the dispute: not found');
    expect(text).toContain('Dispute not found');
    expect(text).toContain('nothing was attached');
  });
});
