import { createHash } from 'node:crypto';
import { type SandboxHandle, startSandbox } from '../../src/sandbox';
import { api, control, type Failure, type FileAnswer, SAMPLES, upload } from './helpers';

const MiB = 1024 * 1024;

describe('POST /api/v1/files', () => {
  let sb: SandboxHandle;
  let appId: string;
  beforeAll(async () => {
    sb = await startSandbox();
    appId = sb.companies.main.mainAppId;
  });
  afterAll(() => sb.close());

  it.each([
    ['application/pdf', 'proof.pdf', SAMPLES.pdf],
    ['image/png', 'proof.png', SAMPLES.png],
    ['image/jpeg', 'proof.jpg', SAMPLES.jpeg],
    ['image/webp', 'proof.webp', SAMPLES.webp],
  ])('accepts %s with 201 and the file fields', async (type, fileName, bytes) => {
    const res = await upload<FileAnswer>(sb, appId, { bytes, fileName, type, purpose: 'ACCOUNT_LIMIT_REQUEST' });
    expect(res.status).toBe(201);
    const file = res.json.file;
    expect(file).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      correlationID: expect.any(String),
      purpose: 'ACCOUNT_LIMIT_REQUEST',
      fileName,
      contentType: type,
      size: bytes.length,
      url: `${sb.url}/sandbox/files/${file.id}`,
      urlExpiresAt: expect.any(String),
      createdAt: expect.any(String),
    });
    expect(Date.parse(file.urlExpiresAt)).toBeGreaterThan(Date.parse(file.createdAt));
  });

  it('refuses a PDF name with PNG bytes', async () => {
    const res = await upload(sb, appId, {
      bytes: SAMPLES.png,
      fileName: 'proof.pdf',
      type: 'application/pdf',
      purpose: 'ACCOUNT_LIMIT_REQUEST',
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'File content does not match its type application/pdf' });
  });

  it('refuses a declared type that does not match the bytes', async () => {
    const res = await upload<Failure>(sb, appId, {
      bytes: SAMPLES.jpeg,
      fileName: 'photo.png',
      type: 'image/png',
      purpose: 'ACCOUNT_LIMIT_REQUEST',
    });
    expect(res.status).toBe(400);
    expect(res.json.error).toBe('File content does not match its type image/png');
  });

  it('refuses types other than the four', async () => {
    const res = await upload(sb, appId, {
      bytes: Buffer.from('hello'),
      fileName: 'a.txt',
      type: 'text/plain',
      purpose: 'ACCOUNT_LIMIT_REQUEST',
    });
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: 'Invalid file type' });
  });

  it('refuses an unknown or missing purpose, and a missing file', async () => {
    const wrong = await upload<Failure>(sb, appId, { bytes: SAMPLES.pdf, purpose: 'SOMETHING' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error).toBe('purpose must be one of ACCOUNT_LIMIT_REQUEST, DISPUTE_EVIDENCE');
    expect((await upload(sb, appId, { bytes: SAMPLES.pdf })).status).toBe(400);

    const form = new FormData();
    form.append('purpose', 'ACCOUNT_LIMIT_REQUEST');
    const res = await fetch(`${sb.url}/api/v1/files`, { method: 'POST', headers: { authorization: appId }, body: form });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: 'file is required' });
  });

  it('refuses a JSON body', async () => {
    const res = await api(sb, 'POST', '/api/v1/files', { appId, body: { purpose: 'ACCOUNT_LIMIT_REQUEST' } });
    expect(res.status).toBe(400);
  });

  it('accepts exactly 10 MiB and refuses 10 MiB + 1 byte', async () => {
    const exact = Buffer.alloc(10 * MiB, 0x20);
    SAMPLES.pdf.copy(exact);
    const ok = await upload<FileAnswer>(sb, appId, { bytes: exact, purpose: 'ACCOUNT_LIMIT_REQUEST' });
    expect(ok.status).toBe(201);
    expect(ok.json.file.size).toBe(10 * MiB);

    const over = Buffer.alloc(10 * MiB + 1, 0x20);
    SAMPLES.pdf.copy(over);
    const refused = await upload(sb, appId, { bytes: over, purpose: 'ACCOUNT_LIMIT_REQUEST' });
    expect(refused.status).toBe(413);
    expect(refused.json).toEqual({ error: 'File too large' });
    // The server still answers normally afterwards.
    expect((await api(sb, 'GET', '/api/v1/account', { appId })).status).toBe(200);
  });

  it('keeps only metadata and the sha256, readable through the control route', async () => {
    const res = await upload<FileAnswer>(sb, appId, {
      bytes: SAMPLES.png,
      fileName: 'p.png',
      type: 'image/png',
      purpose: 'DISPUTE_EVIDENCE',
    });
    const meta = await control<{ file: unknown }>(sb, 'GET', `/files/${res.json.file.id}`);
    expect(meta.status).toBe(200);
    expect(meta.json.file).toMatchObject({
      size: SAMPLES.png.length,
      sha256: createHash('sha256').update(SAMPLES.png).digest('hex'),
      companyId: sb.companies.main.companyId,
      purpose: 'DISPUTE_EVIDENCE',
    });
    expect(JSON.stringify(meta.json)).not.toContain(SAMPLES.png.toString('base64'));
  });

  it('needs FILE_POST', async () => {
    const res = await upload(sb, sb.companies.main.limitedAppId, { bytes: SAMPLES.pdf, purpose: 'ACCOUNT_LIMIT_REQUEST' });
    expect(res.status).toBe(403);
    expect(res.json).toEqual({ error: 'Application does not have required scope: FILE_POST' });
  });

  it('logs the upload as metadata, never the bytes', async () => {
    sb.calls.length = 0;
    await upload(sb, appId, { bytes: SAMPLES.webp, fileName: 'w.webp', type: 'image/webp', purpose: 'ACCOUNT_LIMIT_REQUEST' });
    expect(sb.calls).toHaveLength(1);
    expect(sb.calls[0]?.body).toEqual({
      purpose: 'ACCOUNT_LIMIT_REQUEST',
      fileName: 'w.webp',
      contentType: 'image/webp',
      size: SAMPLES.webp.length,
    });
  });
});
