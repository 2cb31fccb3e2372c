import type { Readable } from 'node:stream';
import axios from 'axios';
import FormData from 'form-data';

// The proof-streaming benchmark's yardstick (proof-streaming.ts): the same transfer the bot makes for
// a limit request's proofs, with no app around it. Each file is downloaded from Slack's
// url_private_download (the bot token as a Bearer token) as a stream and sent on as it comes, in a
// multipart `POST /api/v1/files` to the Pix API, one file after another, with the same libraries the
// bot uses (axios, form-data). Driven over IPC: `ready` once loaded, then `go` → `done`.

interface Go {
  files: Array<{ url: string; name: string; mimetype: string }>;
  botToken: string;
  pixUrl: string;
  appId: string;
}

async function streamOne(file: Go['files'][number], go: Go): Promise<string> {
  const download = await axios.get<Readable>(file.url, { headers: { Authorization: `Bearer ${go.botToken}` }, responseType: 'stream' });
  const length = Number(download.headers['content-length']);
  const form = new FormData();
  form.append('purpose', 'ACCOUNT_LIMIT_REQUEST');
  form.append('file', download.data, { filename: file.name, contentType: file.mimetype, knownLength: length });
  const res = await axios.post<{ file: { id: string } }>(`${go.pixUrl}/api/v1/files`, form, {
    headers: { ...form.getHeaders(), 'Content-Length': form.getLengthSync(), Authorization: go.appId },
    maxBodyLength: Number.POSITIVE_INFINITY,
  });
  return res.data.file.id;
}

process.on('message', (go: Go) => {
  (async () => {
    const ids: string[] = [];
    for (const file of go.files) ids.push(await streamOne(file, go));
    return ids;
  })().then(
    (ids) => process.send?.({ done: ids }),
    (err: unknown) => process.send?.({ error: err instanceof Error ? err.message : String(err) }),
  );
});
process.send?.({ ready: true });
