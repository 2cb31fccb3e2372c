import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { formatApiCents } from '../domain/money';
import { ACCEPTED_TYPES } from '../domain/proof-files';
import { errorText } from '../errors';
import type { Logger } from '../runtime/logger';
import { ThrottledWarning } from '../runtime/throttled-warning';
import type { SandboxHandle } from '../sandbox';
import type { SlackStandIn } from '../slack-standin/web-api';
import type { SlackWorkspace } from '../slack-standin/workspace';
import { PERSONAS } from './personas';

export interface PageServer {
  url: string;
  close(): Promise<void>;
}

export interface PageServerOptions {
  port: number;
  workspace: SlackWorkspace;
  slack: SlackStandIn;
  sandbox: SandboxHandle;
  /** Asks the bot's poller for a tick now (after a decision in the sandbox panel). */
  tick: () => Promise<unknown>;
  /** Posts the morning digest in the channel now (the panel's button). */
  postDigest: () => Promise<unknown>;
  /** Where a failure is told (the page is answered a fixed text). */
  logger?: Logger;
}

/**
 * The page's files are plain HTML, CSS and JS (no compile step). Compiled in a checkout, the app reads them
 * from the source tree (the page as it is now, not as last built); a production install has dist/ alone,
 * where the build copies them next to this file.
 */
const PAGE_DIR = [path.join(__dirname, '..', '..', '..', 'src', 'playground', 'page'), path.join(__dirname, 'page')].find((d) =>
  existsSync(d),
)!;
/**
 * One response: the page's style and scripts inlined into its HTML at start, so that the page is
 * parsed and run without another round trip (DOMContentLoaded; see bench/playground.ts).
 */
function pageHtml(): Buffer {
  const read = (file: string) => readFileSync(path.join(PAGE_DIR, file), 'utf8');
  // A script's text must not close its own element.
  const script = (file: string) => `<script>${read(file).replace(/<\/script/gi, '<\\/script')}</script>`;
  return Buffer.from(
    read('index.html')
      .replace('<!-- style -->', () => `<style>${read('page.css')}</style>`)
      .replace('<!-- scripts -->', () => `${script('block-kit.js')}\n${script('page.js')}`),
  );
}

/** The files a person shares from the page (Slack's own limit is 1 GB; the playground keeps to 20 MB). */
const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
const MAX_JSON_BYTES = 1024 * 1024;
/** The shared files' bytes kept in memory: past it the oldest are dropped (a playground runs for days). */
export const MAX_KEPT_UPLOAD_BYTES = 64 * 1024 * 1024;
/** Live-update streams open at once (a person's tabs); one more is refused until one closes. */
export const MAX_PAGE_CLIENTS = 32;

/**
 * The types a cross-site form, or a fetch that is not asked first (CORS-safelisted), can send: the page
 * never sends them, so no other web page can reach a route that acts.
 */
const CROSS_SITE_TYPES = new Set(['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data']);
/** The types a shared file is kept and served with: what the Pix API takes, and the bot's CSV exports. */
const UPLOAD_TYPES = new Set<string>(Object.values(ACCEPTED_TYPES));
const SERVED_TYPES = new Set<string>([...UPLOAD_TYPES, 'text/csv']);

/**
 * The sandbox control routes the panel may reach (decisions, the withdraw key, balances and withdraw blocks, disputes,
 * the next payment's failure).
 */
const SANDBOX_CONTROL = [
  /^\/sandbox\/limit-requests\/[^/]+\/(approve|reject)$/,
  /^\/sandbox\/accounts\/[^/]+\/(withdraw-key-api|balance|withdraw-blocked)$/,
  /^\/sandbox\/disputes$/,
  /^\/sandbox\/disputes\/[^/]+\/decide$/,
  /^\/sandbox\/payments\/fail$/,
];

/** The payments the panel lists, newest first. */
const PANEL_PAYMENTS = 5;

/** What the panel shows of the sandbox's payments (GET /api/v1/payment) and of how they end (GET /sandbox/info). */
const PanelPayments = z.array(
  z.object({
    payment: z.object({
      id: z.string(),
      value: z.number(),
      status: z.string(),
      destinationAlias: z.string(),
      error: z.object({ code: z.string() }).optional(),
    }),
  }),
);
const PanelOutcomes = z.object({
  confirmDelayMs: z.number(),
  failureCodes: z.record(z.string(), z.string()),
  failNext: z.object({ code: z.string(), count: z.number() }).nullable(),
});

const userId = z.string().regex(/^[UW][A-Z0-9]{2,}$/);
const values = z.record(z.string(), z.record(z.string(), z.unknown()));
const ref = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('ephemeral'), id: z.string() }),
  z.object({ kind: z.literal('message'), channel: z.string(), ts: z.string() }),
]);
const Bodies = {
  command: z.object({ user: userId, channel: z.string(), text: z.string().max(4000), thread_ts: z.string().optional() }),
  say: z.object({
    user: userId,
    channel: z.string(),
    text: z.string().max(40000),
    thread_ts: z.string().optional(),
    files: z.array(z.string()).max(10).optional(),
  }),
  click: z.object({
    user: userId,
    ref: ref.optional(),
    viewId: z.string().optional(),
    action: z.record(z.string(), z.unknown()),
    values: values.optional(),
  }),
  submit: z.object({ user: userId, viewId: z.string(), values }),
  close: z.object({ user: userId, viewId: z.string() }),
  suggest: z.object({ user: userId, viewId: z.string(), actionId: z.string(), blockId: z.string(), value: z.string().max(200) }),
  shortcut: z.object({ user: userId, callbackId: z.string(), channel: z.string(), ts: z.string() }),
  home: z.object({ user: userId }),
};

export async function startPageServer(options: PageServerOptions): Promise<PageServer> {
  const { workspace, slack, sandbox } = options;
  const page = pageHtml();
  let decisions = 0;
  /**
   * Changes when what the sandbox panel shows may have: a write to the Pix API (the bot filing a
   * request…) or a change made through the panel's routes (pushed to every page at once). The page
   * reads the panel again only then (and while a payment it lists is settling: page.js).
   */
  const sandboxVersion = () => {
    let lastWrite = 0;
    for (let i = sandbox.calls.length - 1; i >= 0; i--) {
      if (sandbox.calls[i]!.method !== 'GET') {
        lastWrite = sandbox.calls[i]!.at;
        break;
      }
    }
    return `${lastWrite}.${decisions}`;
  };
  /** What `user` sees, as the page draws it. */
  const stateOf = (user: string) =>
    JSON.stringify({ ...workspace.viewOf(user), personas: PERSONAS, shortcuts: SHORTCUTS, sandboxVersion: sandboxVersion() });
  // Each page's event stream carries its person's whole state, so a change is drawn without another request.
  const clients = new Map<http.ServerResponse, string>();
  let pushing = false;
  const onChange = () => {
    if (pushing) return;
    pushing = true;
    // The changes of one delivery (a view opened, then updated…) go out once.
    setImmediate(() => {
      pushing = false;
      const byUser = new Map<string, string>();
      for (const [res, user] of clients) {
        if (!byUser.has(user)) byUser.set(user, stateOf(user));
        res.write(`data: ${byUser.get(user)}\n\n`);
      }
    });
  };
  workspace.events.on('change', onChange);

  const pix = async (pathName: string) => {
    const res = await fetch(`${sandbox.url}${pathName}`, { headers: { authorization: sandbox.companies.main.mainAppId } });
    return res.ok ? ((await res.json()) as Record<string, unknown>) : {};
  };
  /** The sandbox's own account of how payments end: the confirm delay, the failure codes, the failure armed. */
  const paymentOutcomes = async () => {
    const res = await fetch(`${sandbox.url}/sandbox/info`);
    return res.ok ? PanelOutcomes.parse(((await res.json()) as { payments?: unknown }).payments) : undefined;
  };

  const api: Record<string, (body: unknown) => Promise<unknown>> = {
    command: async (b) => {
      const c = Bodies.command.parse(b);
      await workspace.command(c.user, c.channel, c.text, c.thread_ts);
      return {};
    },
    say: async (b) => {
      const c = Bodies.say.parse(b);
      workspace.say(c.user, c);
      return {};
    },
    click: async (b) => {
      const c = Bodies.click.parse(b);
      if (c.viewId) await workspace.clickInView(c.user, c.viewId, c.action, c.values);
      else if (c.ref) await workspace.clickInMessage(c.user, c.ref, c.action, c.values);
      return {};
    },
    submit: async (b) => {
      const c = Bodies.submit.parse(b);
      return workspace.submit(c.user, c.viewId, c.values);
    },
    close: async (b) => {
      const c = Bodies.close.parse(b);
      await workspace.closeView(c.user, c.viewId);
      return {};
    },
    suggest: async (b) => {
      const c = Bodies.suggest.parse(b);
      return workspace.suggest(c.user, c.viewId, c);
    },
    shortcut: async (b) => {
      const c = Bodies.shortcut.parse(b);
      await workspace.shortcut(c.user, c.callbackId, c.channel, c.ts);
      return {};
    },
    home: async (b) => {
      await workspace.openHome(Bodies.home.parse(b).user);
      return {};
    },
    digest: async () => {
      await options.postDigest();
      return {};
    },
  };

  /** Shared files, oldest first: past MAX_KEPT_UPLOAD_BYTES the oldest are forgotten. */
  const kept: Array<{ id: string; size: number }> = [];
  let keptBytes = 0;
  const keep = (id: string, size: number) => {
    kept.push({ id, size });
    keptBytes += size;
    while (keptBytes > MAX_KEPT_UPLOAD_BYTES) {
      const oldest = kept.shift()!;
      keptBytes -= oldest.size;
      slack.files.delete(oldest.id);
    }
  };

  /** The addresses the page answers at, once its port is known. */
  let ownHosts = new Set<string>();

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const refused = foreign(req, ownHosts);
    if (refused) {
      req.resume();
      return json(res, 403, { error: refused });
    }
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/') {
      // Never inside another site's frame (a click there would be a click here).
      res
        .writeHead(200, {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-cache',
          'x-frame-options': 'DENY',
          'content-security-policy': "frame-ancestors 'none'",
        })
        .end(page);
      return;
    }
    if (req.method === 'GET' && (url.pathname === '/api/events' || url.pathname === '/api/state')) {
      const user = userId.safeParse(url.searchParams.get('user'));
      if (!user.success) return json(res, 400, { error: 'user: expected a Slack user ID' });
      if (url.pathname === '/api/state') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(stateOf(user.data));
        return;
      }
      if (clients.size >= MAX_PAGE_CLIENTS) return json(res, 503, { error: 'too many pages open: close one' });
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
      res.write(`data: ${stateOf(user.data)}\n\n`);
      clients.set(res, user.data);
      req.on('close', () => clients.delete(res));
      return;
    }
    const file = /^\/files\/([^/]+)\//.exec(url.pathname);
    if (req.method === 'GET' && file) {
      const f = slack.files.get(decodeURIComponent(file[1]!));
      if (!f) return json(res, 404, { error: 'no such file' });
      // A download, never a page of this origin: whatever the bytes are, no browser renders them here.
      res
        .writeHead(200, {
          'content-type': SERVED_TYPES.has(f.mimetype) ? f.mimetype : 'application/octet-stream',
          'content-length': f.bytes.length,
          'content-disposition': attachment(f.name),
          'x-content-type-options': 'nosniff',
        })
        .end(f.bytes);
      return;
    }
    if (req.method === 'POST' && url.pathname === '/api/upload') {
      // The file's bytes as they are, with its own type (or application/octet-stream).
      const type = mediaType(req);
      if (!type || CROSS_SITE_TYPES.has(type))
        return json(res, 415, { error: 'expected the file itself, with its type or application/octet-stream' });
      const bytes = await readBody(req, MAX_UPLOAD_BYTES, 'upload');
      const name = (url.searchParams.get('name') ?? 'file').slice(0, 255);
      const id = workspace.addFile(name, UPLOAD_TYPES.has(type) ? type : 'application/octet-stream', bytes);
      keep(id, bytes.length);
      return json(res, 200, { id, file: slack.fileObject(id) });
    }
    if (req.method === 'POST' && mediaType(req) !== 'application/json') return json(res, 415, { error: 'expected application/json' });
    if (req.method === 'GET' && url.pathname === '/api/sandbox') {
      const [requests, accounts, payments, outcomes] = await Promise.all([
        pix('/api/v1/limits/request?limit=20&skip=0'),
        pix('/api/v1/account'),
        pix(`/api/v1/payment?limit=${PANEL_PAYMENTS}&skip=0`),
        paymentOutcomes(),
      ]);
      // Each balance also as people read it (the app's one formatter): the panel shows both.
      const withMoney = ((accounts.accounts ?? []) as Array<{ balance?: { available?: unknown } }>).map((a) => ({
        ...a,
        ...(typeof a.balance?.available === 'number' ? { availableText: formatApiCents(a.balance.available, 'en') } : {}),
      }));
      const listed = PanelPayments.safeParse(payments.payments ?? []);
      return json(res, 200, {
        limitRequests: requests.limitRequests ?? [],
        accounts: withMoney,
        payments: (listed.success ? listed.data : []).map(({ payment: p }) => ({ ...p, valueText: formatApiCents(p.value, 'en') })),
        ...(outcomes ? { paymentOutcomes: outcomes } : {}),
      });
    }
    const control = url.pathname.replace(/^\/api/, '');
    if (req.method === 'POST' && SANDBOX_CONTROL.some((r) => r.test(control))) {
      const body = (await readBody(req, MAX_JSON_BYTES, 'json')).toString('utf8');
      const answer = await fetch(`${sandbox.url}${control}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: body || '{}',
      });
      const text = await answer.text();
      // Every page's panel reads the sandbox again (the change may come from another page, or no page);
      // a decision reaches its thread on the next tick: ask for one now rather than in 5 s.
      if (answer.ok) {
        decisions++;
        onChange();
        void options.tick().catch(() => undefined);
      }
      res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(text);
      return;
    }
    const action = req.method === 'POST' ? /^\/api\/(\w+)$/.exec(url.pathname)?.[1] : undefined;
    const run = action ? api[action] : undefined;
    if (!run) return json(res, 404, { error: 'not found' });
    const body = parseJson((await readBody(req, MAX_JSON_BYTES, 'json')).toString('utf8'));
    try {
      return json(res, 200, await run(body));
    } catch (err) {
      if (err instanceof z.ZodError)
        return json(res, 400, { error: err.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ') });
      throw err;
    }
  };

  // Any page on this machine can send them: said at most once a minute, with how many.
  const oversized =
    options.logger &&
    new ThrottledWarning({
      logger: options.logger,
      message: 'playground requests refused (413): body over its limit (at most one line a minute; the count is since the last line)',
      total: 'tooLarge',
      kinds: ['json', 'upload'],
    });
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (err instanceof TooLargeError) oversized?.note(err.kind);
      else options.logger?.error({ err: errorText(err), path: req.url?.split('?')[0] }, 'the playground page server failed');
      if (!res.headersSent)
        json(res, err instanceof TooLargeError ? 413 : 500, { error: err instanceof TooLargeError ? err.message : 'internal error' });
      else res.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new Error(`PLAYGROUND_PORT: port ${options.port} of 127.0.0.1 is in use (choose another, or 0 for any free port)`)
          : err,
      ),
    );
    // Loopback only: the page drives a bot that holds AppIDs.
    server.listen(options.port, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  ownHosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      workspace.events.off('change', onChange);
      for (const res of clients.keys()) res.end();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The app's message shortcuts, from manifest.yml (what Slack lists in a message's "More actions"). */
const SHORTCUTS = [{ callbackId: 'limit_request_with_files', name: 'Request limit increase' }];

/**
 * Why a request is not the page's own, or undefined when it is. The Host must be the page's address
 * (another name resolved to 127.0.0.1 is DNS rebinding: a foreign page reading this one); a browser's
 * request from another page says so in Origin or Sec-Fetch-Site (requests without them are not a
 * browser's: a script on this machine, which may reach the bot anyway).
 */
function foreign(req: http.IncomingMessage, ownHosts: ReadonlySet<string>): string | undefined {
  const host = req.headers.host?.toLowerCase();
  if (!host || !ownHosts.has(host)) return 'this page answers only at its own address (127.0.0.1 or localhost, on its port)';
  // A link followed to the page from anywhere (a README, a terminal) opens it: it reads and does nothing.
  if (isTopLevelVisit(req)) return undefined;
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (
    (origin !== undefined && origin.toLowerCase() !== `http://${host}`) ||
    (site !== undefined && site !== 'same-origin' && site !== 'none')
  )
    return 'requests from another site are refused';
  return undefined;
}

/** The page itself, opened in a tab (not in a frame, nor fetched by a script). */
const isTopLevelVisit = (req: http.IncomingMessage) =>
  req.method === 'GET' &&
  (req.url ?? '').split('?')[0] === '/' &&
  req.headers['sec-fetch-mode'] === 'navigate' &&
  req.headers['sec-fetch-dest'] === 'document';

/** The request body's media type, lower case, without parameters ('' when none is given). */
const mediaType = (req: http.IncomingMessage) => (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();

/** Content-Disposition of a download: an ASCII fallback name, and the name itself (RFC 6266, RFC 8187). */
function attachment(name: string): string {
  const fallback = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    return undefined;
  }
}

class TooLargeError extends Error {
  constructor(
    max: number,
    readonly kind: 'json' | 'upload',
  ) {
    super(`the body is over ${max} bytes`);
  }
}

async function readBody(req: http.IncomingMessage, max: number, kind: TooLargeError['kind']): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) throw new TooLargeError(max, kind);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
