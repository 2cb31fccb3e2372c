import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { WebClient } from '@slack/web-api';
import { Database, OPEN_READONLY } from 'sqlite3';

// The audit export benchmark's yardstick (audit.ts): the same export the bot makes, with no app
// around it. The entries of a period are read from the sqlite file in batches of 100 by id, written
// as CSV records to a temporary file (Slack wants the length first), then uploaded as Slack's
// external upload asks: files.getUploadURLExternal, the bytes POSTed raw to its URL, then
// files.completeUploadExternal in the admin's direct message. The same libraries as the bot
// (sqlite3, @slack/web-api), each stream's backpressure respected. Driven over IPC: `ready` once its
// file is open and Slack answered (conversations.open), then `go` → `done`.

interface Setup {
  file: string;
  namespace: string;
  slackApiUrl: string;
  botToken: string;
  admin: string;
}

interface Go {
  /** The period, [from, to), as ISO times. */
  from: string;
  to: string;
  /** The CSV's first line(s): the byte-order mark and the header, as the bot writes them. */
  head: string;
}

const BATCH = 100;
const SELECT =
  'SELECT id, time, user_id, role, action, target, pix_method, pix_path, pix_status, maker, checker, outcome, detail FROM audit_trail NOT INDEXED';

/** RFC 4180: quoted when it holds a comma, a quote or a line break, its quotes doubled. */
const field = (value: unknown) => {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
};

function all(db: Database, sql: string, params: unknown[]): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) =>
    db.all(sql, params, (err, rows: Array<Record<string, unknown>>) => (err ? reject(err) : resolve(rows))),
  );
}

async function exportCsv(
  db: Database,
  setup: Setup,
  go: Go,
  slack: WebClient,
  channel: string,
): Promise<{ fileId: string; bytes: number }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'minimal-exporter-'));
  try {
    const csv = path.join(dir, 'audit.csv');
    const out = createWriteStream(csv);
    const write = async (text: string) => {
      if (!out.write(text)) await once(out, 'drain');
    };
    await write(go.head);
    let after = 0;
    for (;;) {
      const rows = await all(db, `${SELECT} WHERE id > ? AND namespace = ? AND time >= ? AND time < ? ORDER BY id ASC LIMIT ?`, [
        after,
        setup.namespace,
        go.from,
        go.to,
        BATCH,
      ]);
      for (const row of rows) {
        const { id, ...fields } = row;
        await write(`${Object.values(fields).map(field).join(',')}\r\n`);
      }
      if (rows.length < BATCH) break;
      after = Number(rows[rows.length - 1]!.id);
    }
    out.end();
    await once(out, 'finish');
    const bytes = out.bytesWritten;

    const target = await slack.files.getUploadURLExternal({ filename: 'audit.csv', length: bytes });
    const request = http.request(target.upload_url!, {
      method: 'POST',
      headers: { 'Content-Type': 'application/octet-stream', 'Content-Length': bytes },
    });
    const answered = once(request, 'response') as Promise<[http.IncomingMessage]>;
    await pipeline(createReadStream(csv), request);
    const [response] = await answered;
    response.resume();
    if (response.statusCode !== 200) throw new Error(`the upload URL answered ${response.statusCode}`);
    await slack.files.completeUploadExternal({ files: [{ id: target.file_id!, title: 'audit.csv' }], channel_id: channel });
    return { fileId: target.file_id!, bytes };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const setup = JSON.parse(process.env.MINIMAL_EXPORTER ?? '{}') as Setup;
const db = new Database(setup.file, OPEN_READONLY);
const slack = new WebClient(setup.botToken, { slackApiUrl: setup.slackApiUrl });

(async () => {
  await all(db, 'SELECT MIN(id) AS low FROM audit_trail WHERE namespace = ?', [setup.namespace]);
  const { channel } = await slack.conversations.open({ users: setup.admin });
  const channelId = channel!.id!;
  process.on('message', (go: Go) => {
    exportCsv(db, setup, go, slack, channelId).then(
      (done) => process.send?.({ done }),
      (err: unknown) => process.send?.({ error: err instanceof Error ? err.message : String(err) }),
    );
  });
  process.send?.({ ready: true });
})().catch((err: unknown) => process.send?.({ error: err instanceof Error ? err.message : String(err) }));
