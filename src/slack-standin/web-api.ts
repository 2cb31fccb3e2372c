import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  blocksRefusal,
  checkMessage,
  checkOptionsAck,
  checkView,
  checkViewSubmissionAck,
  type Problem,
  problemText,
  viewsRefusal,
} from './block-kit-rules';
import { SlackStandInRateLimit } from './rate-limit';

export interface SlackApiCall {
  method: string;
  args: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  at: number;
  /**
   * When its request began to arrive, and when its answer was handed to the socket: milliseconds
   * since the epoch, to the microsecond (`performance.timeOrigin + performance.now()`), so that a
   * benchmark tells Slack's part of a caller's time from the caller's own, from outside the client.
   */
  receivedAt: number;
  answeredAt?: number;
  /** What the stand-in answered. */
  response?: unknown;
  /** The answer never reached the caller (see loseAnswers). */
  lost?: boolean;
}

/** A message as the stand-in keeps it, so threads can be read back like the real ones. */
export interface StoredMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text?: string;
  blocks?: unknown;
  metadata?: { event_type: string; event_payload: Record<string, unknown> };
  user?: string;
  bot_id?: string;
  /** Files shared with the message (Slack's file objects). */
  files?: unknown[];
}

export interface StandInFile {
  id: string;
  name: string;
  mimetype: string;
  bytes: Buffer;
  /** The `size` Slack's metadata claims, when it is not the real one. */
  reportedSize?: number;
  /** Served without a Content-Length (chunked), so only counting the bytes tells the size. */
  chunked?: boolean;
}

export interface ResponseUrlCall {
  id: string;
  body: Record<string, unknown>;
  at: number;
}

/** A payload the stand-in refused as real Slack would (see block-kit-rules.ts): where, and why. */
export interface Refusal {
  /** The Web API method, `response_url`, or `ack:<payload type>` for an acknowledgement's body. */
  where: string;
  problems: string[];
  payload: unknown;
}

/** Web API methods whose `view` Slack checks, and those whose `blocks` it checks. */
const VIEW_METHODS = new Set(['views.open', 'views.update', 'views.push', 'views.publish']);
const MESSAGE_METHODS = new Set(['chat.postMessage', 'chat.update', 'chat.postEphemeral', 'chat.scheduleMessage']);

/** Now, in milliseconds since the epoch to the microsecond (see SlackApiCall's receivedAt). */
const preciseNow = () => performance.timeOrigin + performance.now();

type Handler = (args: Record<string, unknown>, call: SlackApiCall) => unknown | Promise<unknown>;

/**
 * A stand-in for Slack on 127.0.0.1: the Web API (`/api/<method>`, reached by the real
 * @slack/web-api client through SLACK_API_URL) and response URLs (`/respond/<id>`). It records every
 * call, answers with plausible defaults, and lets a test replace any method's answer.
 */
export class SlackStandIn {
  /**
   * `call` (a Web API call, once answered), `response` (a response_url post taken) and `refusal`:
   * what a workspace built on this stand-in (see workspace.ts) follows.
   */
  readonly events = new EventEmitter();
  readonly calls: SlackApiCall[] = [];
  readonly responses: ResponseUrlCall[] = [];
  readonly userGroups = new Map<string, string[]>();
  /** Every message posted (and updated) through the Web API, by channel. */
  readonly messages: StoredMessage[] = [];
  readonly files = new Map<string, StandInFile>();
  /** Channels the bot is not in: posting, updating and reading answer `not_in_channel`. */
  readonly closedChannels = new Set<string>();
  /** Archived channels: readable, but posting and updating answer `is_archived`. */
  readonly archivedChannels = new Set<string>();
  /**
   * Each user's Slack locale, as `users.info` gives it with `include_locale` (`en-US`, `pt-BR`, …);
   * users not set here are `en-US`, the default locale of this stand-in. Set one to `null` for a user
   * whose locale Slack does not give.
   */
  readonly locales = new Map<string, string | null>();
  defaultLocale = 'en-US';
  /** The bot token downloads must carry (as Slack requires for url_private_download). */
  botToken = 'xoxb-test-bot-token-0123456789';
  /** Every payload this stand-in refused (Block Kit that real Slack would refuse), until taken. */
  readonly refusals: Refusal[] = [];
  /** Refusals of every stand-in not yet taken by a test: test/support/jest-setup.ts fails the test that caused one. */
  private static readonly untaken = new Set<Refusal>();
  /** Slack's rate limits, off until a test sets a rule (see rate-limit.ts). */
  readonly rateLimit = new SlackStandInRateLimit();
  private readonly handlers = new Map<string, Handler>();
  /** Methods whose next answers are lost: the call takes effect, then the connection drops. */
  private readonly losing = new Map<string, number>();
  private server?: http.Server;
  private tsCounter = 0;
  url = '';

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  get apiUrl(): string {
    return `${this.url}/api/`;
  }

  responseUrl(id: string): string {
    return `${this.url}/respond/${id}`;
  }

  on(method: string, handler: Handler): void {
    this.handlers.set(method, handler);
  }

  /** Drops a replacement set with `on`, going back to the default answer. */
  off(method: string): void {
    this.handlers.delete(method);
  }

  /**
   * The next `count` calls of `method` take effect (a message is stored…) but their answer is lost:
   * the connection is dropped before any byte of it, as when a network cuts between Slack and the app.
   */
  loseAnswers(method: string, count = 1): void {
    this.losing.set(method, (this.losing.get(method) ?? 0) + count);
  }

  /** What the stand-in answers by default (for a handler set with `on` that wraps it: delay it, drop it…). */
  answerByDefault(method: string, args: Record<string, unknown>): unknown {
    return this.defaultAnswer(method, args);
  }

  /** A message posted by someone else (a person, another app's bot), as it would be in the channel. */
  addMessage(message: Omit<StoredMessage, 'ts'> & { ts?: string }): StoredMessage {
    const stored: StoredMessage = { ...message, ts: message.ts ?? this.nextTs() };
    this.messages.push(stored);
    return stored;
  }

  addFile(file: StandInFile): StandInFile {
    this.files.set(file.id, file);
    return file;
  }

  /** The file object Slack returns (files.info, message files, file_input state). */
  fileObject(id: string): Record<string, unknown> {
    const f = this.files.get(id);
    if (!f) throw new Error(`no such file ${id}`);
    const filetype = f.name.split('.').pop()?.toLowerCase() ?? 'binary';
    return {
      id: f.id,
      name: f.name,
      title: f.name,
      mimetype: f.mimetype,
      filetype,
      size: f.reportedSize ?? f.bytes.length,
      url_private: `${this.url}/files-pri/${f.id}/${encodeURIComponent(f.name)}`,
      url_private_download: `${this.url}/files-pri/${f.id}/download/${encodeURIComponent(f.name)}`,
    };
  }

  /** Messages of one thread (root first), as conversations.replies shows them. */
  thread(channel: string, ts: string): StoredMessage[] {
    return this.messages.filter((m) => m.channel === channel && (m.ts === ts || m.thread_ts === ts));
  }

  callsOf(method: string): SlackApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  responsesTo(id: string): ResponseUrlCall[] {
    return this.responses.filter((r) => r.id === id);
  }

  /** This stand-in's refusals so far, which no longer fail the test (for a test that expects one). */
  takeRefusals(): Refusal[] {
    const taken = this.refusals.splice(0);
    for (const r of taken) SlackStandIn.untaken.delete(r);
    return taken;
  }

  /** The refusals of every stand-in not taken yet; they are then taken. */
  static takeUntakenRefusals(): Refusal[] {
    const taken = [...SlackStandIn.untaken];
    SlackStandIn.untaken.clear();
    return taken;
  }

  /**
   * Judges the app's acknowledgement of a request as Slack would: a view submission's
   * `response_action` against the view submitted, a block_suggestion's options, a slash command's
   * immediate message. `requestBody` is what was posted to the app, `answer` the app's HTTP body.
   */
  judgeAck(requestBody: string, answer: string): Problem[] {
    const params = new URLSearchParams(requestBody);
    let ack: unknown;
    try {
      ack = answer ? JSON.parse(answer) : undefined;
    } catch {
      ack = answer;
    }
    let where: string;
    let problems: Problem[];
    const payloadText = params.get('payload');
    if (payloadText) {
      const payload = safeJson(payloadText) as { type?: string; view?: unknown };
      where = `ack:${String(payload.type)}`;
      if (payload.type === 'view_submission') problems = checkViewSubmissionAck(ack, payload.view);
      else if (payload.type === 'block_suggestion') problems = checkOptionsAck(ack);
      else return [];
    } else if (params.get('command')) {
      where = 'ack:slash_command';
      if (ack === undefined || typeof ack !== 'object') return [];
      problems = checkMessage(ack);
    } else {
      return [];
    }
    if (problems.length > 0) this.refuse(where, problems, ack);
    return problems;
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const receivedAt = preciseNow();
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    const fileMatch = /^\/files-pri\/([^/]+)\//.exec(url.pathname);
    if (fileMatch) {
      this.serveFile(fileMatch[1]!, req, res);
      return;
    }
    const respondMatch = /^\/respond\/(.+)$/.exec(url.pathname);
    if (respondMatch) {
      const body = raw ? JSON.parse(raw) : {};
      // Like an incoming webhook, a response_url refuses bad blocks with a 400 and a plain-text code.
      if (this.refuse('response_url', checkMessage(body), body)) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end('invalid_blocks');
        return;
      }
      const response: ResponseUrlCall = { id: decodeURIComponent(respondMatch[1]!), body, at: Date.now() };
      this.responses.push(response);
      this.events.emit('response', response);
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      return;
    }
    const apiMatch = /^\/api\/(.+)$/.exec(url.pathname);
    if (!apiMatch) {
      res.writeHead(404).end();
      return;
    }
    const method = apiMatch[1]!;
    const args = parseArgs(raw, req.headers['content-type']);
    const call: SlackApiCall = { method, args, headers: req.headers, at: Date.now(), receivedAt };
    res.once('finish', () => {
      call.answeredAt = preciseNow();
    });
    this.calls.push(call);
    // Slack's rate limit first (a refused call is not looked at), then its checks of the payload.
    const refused = this.rateLimit.refuse(method, args) ?? this.judgeCall(method, args);
    const handler = this.handlers.get(method);
    const answer = refused ?? (handler ? await handler(args, call) : this.defaultAnswer(method, args));
    call.response = answer;
    this.events.emit('call', call);
    const losing = this.losing.get(method) ?? 0;
    if (losing > 0) {
      this.losing.set(method, losing - 1);
      call.lost = true;
      req.socket.destroy();
      return;
    }
    if (answer && typeof answer === 'object' && 'httpStatus' in answer) {
      const { httpStatus, headers, body } = answer as { httpStatus: number; headers?: Record<string, string>; body?: unknown };
      res.writeHead(httpStatus, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body ?? {}));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }

  /** Slack's own checks of a view or a message, before anything else answers the call. */
  private judgeCall(method: string, args: Record<string, unknown>): unknown {
    if (VIEW_METHODS.has(method)) {
      const problems = checkView(args.view);
      return this.refuse(method, problems, args.view) ? viewsRefusal(problems) : undefined;
    }
    if (MESSAGE_METHODS.has(method)) {
      const problems = checkMessage(args);
      return this.refuse(method, problems, args) ? blocksRefusal(problems) : undefined;
    }
    return undefined;
  }

  /** Records a refusal when there are problems; true if so. */
  private refuse(where: string, problems: Problem[], payload: unknown): boolean {
    if (problems.length === 0) return false;
    const refusal: Refusal = { where, problems: problems.map(problemText), payload };
    this.refusals.push(refusal);
    SlackStandIn.untaken.add(refusal);
    this.events.emit('refusal', refusal);
    return true;
  }

  /** Like Slack: without the bot token a private file URL answers 200 with an HTML login page. */
  private serveFile(id: string, req: http.IncomingMessage, res: http.ServerResponse): void {
    const file = this.files.get(id);
    this.calls.push({
      method: 'file.download',
      args: { id, range: req.headers.range },
      headers: req.headers,
      at: Date.now(),
      receivedAt: preciseNow(),
    });
    if (req.headers.authorization !== `Bearer ${this.botToken}`) {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!DOCTYPE html><html><body>Sign in to Slack</body></html>');
      return;
    }
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    serveFileBytes(file, req.headers.range, res);
  }

  /** A message ts as Slack makes them: the posting time in seconds, unique by its fraction. */
  private nextTs(): string {
    return `${Math.floor(Date.now() / 1000)}.${String(this.tsCounter++ % 1_000_000).padStart(6, '0')}`;
  }

  private defaultAnswer(method: string, args: Record<string, unknown>): unknown {
    switch (method) {
      case 'auth.test':
        return {
          ok: true,
          url: WORKSPACE_URL,
          team: 'Fake',
          user: 'pixops',
          team_id: 'T0FAKE',
          user_id: 'U0BOT',
          bot_id: 'B0BOT',
        };
      case 'users.info': {
        // Like Slack: the locale only with include_locale.
        const id = String(args.user);
        const withLocale = args.include_locale === true || args.include_locale === 'true';
        const locale = this.locales.has(id) ? this.locales.get(id) : this.defaultLocale;
        return { ok: true, user: { id, name: id.toLowerCase(), ...(withLocale && locale ? { locale } : {}) } };
      }
      case 'usergroups.users.list':
        return { ok: true, users: this.userGroups.get(String(args.usergroup)) ?? [] };
      case 'chat.postMessage': {
        const channel = String(args.channel);
        if (this.closedChannels.has(channel)) return { ok: false, error: 'not_in_channel' };
        if (this.archivedChannels.has(channel)) return { ok: false, error: 'is_archived' };
        // Like Slack: a reply to a message that is not there (deleted) is refused
        // (https://github.com/slackapi/bolt-js/issues/2307).
        if (args.thread_ts !== undefined && !this.messages.some((m) => m.channel === channel && m.ts === args.thread_ts)) {
          return { ok: false, error: 'thread_not_found' };
        }
        const ts = this.nextTs();
        const message: StoredMessage = {
          channel,
          ts,
          thread_ts: args.thread_ts as string | undefined,
          text: args.text as string | undefined,
          blocks: args.blocks,
          metadata: args.metadata as StoredMessage['metadata'],
          bot_id: 'B0BOT',
          user: 'U0BOT',
        };
        this.messages.push(message);
        return { ok: true, channel, ts, message };
      }
      case 'chat.update': {
        if (this.closedChannels.has(String(args.channel))) return { ok: false, error: 'not_in_channel' };
        if (this.archivedChannels.has(String(args.channel))) return { ok: false, error: 'is_archived' };
        const found = this.messages.find((m) => m.channel === args.channel && m.ts === args.ts);
        if (!found) return { ok: false, error: 'message_not_found' };
        Object.assign(found, { text: args.text, blocks: args.blocks }, args.metadata ? { metadata: args.metadata } : {});
        return { ok: true, channel: found.channel, ts: found.ts };
      }
      case 'chat.getPermalink': {
        // Like Slack (https://docs.slack.dev/reference/methods/chat.getPermalink): `channel` and
        // `message_ts` required, a message it does not hold is `message_not_found`, and a reply's link
        // names its thread.
        const channel = typeof args.channel === 'string' ? args.channel : '';
        const ts = typeof args.message_ts === 'string' ? args.message_ts : '';
        if (!channel) return { ok: false, error: 'channel_not_found' };
        if (!ts) return { ok: false, error: 'invalid_arguments' };
        const found = this.messages.find((m) => m.channel === channel && m.ts === ts);
        if (!found) return { ok: false, error: 'message_not_found' };
        const link = `${WORKSPACE_URL}archives/${channel}/p${ts.replace('.', '')}`;
        const thread = found.thread_ts && found.thread_ts !== found.ts ? `?thread_ts=${found.thread_ts}&cid=${channel}` : '';
        return { ok: true, channel, permalink: `${link}${thread}` };
      }
      case 'chat.delete': {
        const at = this.messages.findIndex((m) => m.channel === args.channel && m.ts === args.ts);
        if (at < 0) return { ok: false, error: 'message_not_found' };
        this.messages.splice(at, 1);
        return { ok: true, channel: args.channel, ts: args.ts };
      }
      case 'conversations.history': {
        // Top-level messages, newest first, after `oldest` (exclusive, as Slack's default), a page at a time.
        const channel = String(args.channel);
        if (this.closedChannels.has(channel)) return { ok: false, error: 'not_in_channel' };
        const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
        const oldest = tsKey(String(args.oldest ?? '0'));
        const all = this.messages
          .filter((m) => m.channel === channel && (m.thread_ts === undefined || m.thread_ts === m.ts) && tsKey(m.ts) > oldest)
          .sort((a, b) => (tsKey(a.ts) < tsKey(b.ts) ? 1 : -1));
        const from = Number(String(args.cursor ?? '').replace(/^next:/, '')) || 0;
        const limit = Math.min(Number(args.limit ?? 100) || 100, 999);
        const page = all.slice(from, from + limit).map((m) => {
          const { metadata, ...rest } = m;
          return withMetadata && metadata ? { ...rest, metadata } : rest;
        });
        const more = from + limit < all.length;
        return { ok: true, messages: page, has_more: more, response_metadata: { next_cursor: more ? `next:${from + limit}` : '' } };
      }
      case 'conversations.replies': {
        if (this.closedChannels.has(String(args.channel))) return { ok: false, error: 'not_in_channel' };
        const withMetadata = args.include_all_metadata === true || args.include_all_metadata === 'true';
        const messages = this.thread(String(args.channel), String(args.ts)).map((m) => {
          const { metadata, ...rest } = m;
          return withMetadata && metadata ? { ...rest, metadata } : rest;
        });
        if (messages.length === 0) return { ok: false, error: 'thread_not_found' };
        return { ok: true, messages, has_more: false };
      }
      case 'conversations.open':
        return { ok: true, channel: { id: `D${String(args.users).replace(/^U/, '')}` } };
      case 'files.info': {
        const id = String(args.file);
        return this.files.has(id) ? { ok: true, file: this.fileObject(id) } : { ok: false, error: 'file_not_found' };
      }
      case 'views.open':
      case 'views.update':
      case 'views.push':
        return { ok: true, view: { id: `V${this.tsCounter++}`, hash: `h${this.tsCounter}` } };
      default:
        return { ok: true };
    }
  }
}

/** The stand-in's workspace, as auth.test names it: the base of its permalinks. */
const WORKSPACE_URL = 'https://fake.slack.test/';

/** A ts as a string that sorts like the time it names (`1700000000.000100`; numbers lose the last digits). */
function tsKey(ts: string): string {
  const [seconds = '0', fraction = ''] = ts.split('.');
  return `${seconds.padStart(12, '0')}.${fraction.padEnd(6, '0')}`;
}

function serveFileBytes(file: StandInFile, range: string | undefined, res: http.ServerResponse): void {
  const m = range ? /^bytes=(\d+)-(\d*)$/.exec(range) : null;
  if (!m) {
    res.writeHead(200, { 'content-type': file.mimetype, ...(file.chunked ? {} : { 'content-length': file.bytes.length }) }).end(file.bytes);
    return;
  }
  const start = Number(m[1]);
  const end = Math.min(m[2] ? Number(m[2]) : file.bytes.length - 1, file.bytes.length - 1);
  const part = file.bytes.subarray(start, end + 1);
  res
    .writeHead(206, {
      'content-type': file.mimetype,
      'content-length': part.length,
      'content-range': `bytes ${start}-${end}/${file.bytes.length}`,
    })
    .end(part);
}

function parseArgs(raw: string, contentType: string | undefined): Record<string, unknown> {
  if (!raw) return {};
  if (contentType?.includes('application/json')) return JSON.parse(raw) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(raw)) {
    // The client sends structured arguments (blocks, view, metadata) as JSON strings.
    out[k] = /^[[{]/.test(v) ? safeJson(v) : v;
  }
  return out;
}

function safeJson(v: string): unknown {
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}
