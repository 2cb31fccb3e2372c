import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SlackStandIn } from './web-api';

/** A file as `files.uploadV2` left it in the Slack stand-in: its bytes, and where it was shared. */
export interface FakeUpload {
  fileId: string;
  filename: string;
  /** The length announced to files.getUploadURLExternal. */
  length: number;
  bytes?: Buffer;
  /** Set by files.completeUploadExternal. */
  shared?: { channel?: string; title?: string; initialComment?: string; threadTs?: string };
}

/**
 * `files.uploadV2` against the Slack stand-in, as @slack/web-api performs it:
 * `files.getUploadURLExternal` (answered with an upload URL on a small server of its own), an HTTP
 * POST of the bytes to that URL (recorded), then `files.completeUploadExternal` (which shares the file
 * in `channel_id`, or answers `not_in_channel` for the stand-in's closed channels).
 */
export class SlackStandInUploads {
  readonly uploads = new Map<string, FakeUpload>();
  private server?: http.Server;
  private url = '';
  private counter = 0;

  constructor(private readonly slack: SlackStandIn) {}

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.receive(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;

    this.slack.on('files.getUploadURLExternal', (args) => {
      const fileId = `F0UP${String(++this.counter).padStart(6, '0')}`;
      this.uploads.set(fileId, { fileId, filename: String(args.filename ?? ''), length: Number(args.length) });
      return { ok: true, upload_url: `${this.url}/upload/${fileId}`, file_id: fileId };
    });
    this.slack.on('files.completeUploadExternal', (args) => {
      const files = (Array.isArray(args.files) ? args.files : []) as Array<{ id: string; title?: string }>;
      const channel = args.channel_id === undefined ? undefined : String(args.channel_id);
      if (channel && this.slack.closedChannels.has(channel)) return { ok: false, error: 'not_in_channel' };
      for (const f of files) {
        const upload = this.uploads.get(f.id);
        if (!upload?.bytes) return { ok: false, error: 'file_upload_not_found' };
        upload.shared = {
          channel,
          title: f.title,
          initialComment: args.initial_comment === undefined ? undefined : String(args.initial_comment),
          threadTs: args.thread_ts === undefined ? undefined : String(args.thread_ts),
        };
      }
      return { ok: true, files: files.map((f) => ({ id: f.id, title: f.title, name: this.uploads.get(f.id)?.filename })) };
    });
    return this;
  }

  /** The uploads shared in a channel, in order. */
  sharedIn(channel: string): FakeUpload[] {
    return [...this.uploads.values()].filter((u) => u.shared?.channel === channel);
  }

  async close(): Promise<void> {
    this.slack.off('files.getUploadURLExternal');
    this.slack.off('files.completeUploadExternal');
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  /** The client posts the bytes as multipart form data (one file part) or raw; both are read. */
  private async receive(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const m = /^\/upload\/([^/?]+)$/.exec(req.url ?? '');
    const upload = m ? this.uploads.get(m[1]!) : undefined;
    if (req.method !== 'POST' || !upload) {
      res.writeHead(404).end();
      return;
    }
    const type = req.headers['content-type'] ?? '';
    let bytes = raw;
    if (type.startsWith('multipart/form-data')) {
      const form = await new Response(raw, { headers: { 'content-type': type } }).formData();
      const file = [...form.values()].find((v) => typeof v !== 'string') as Blob | undefined;
      bytes = file ? Buffer.from(await file.arrayBuffer()) : Buffer.alloc(0);
    }
    upload.bytes = bytes;
    res.writeHead(200, { 'content-type': 'text/plain' }).end(`OK - ${bytes.length}`);
  }
}
