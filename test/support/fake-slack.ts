import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SlackApiCall {
  method: string;
  args: Record<string, unknown>;
  headers: http.IncomingHttpHeaders;
  at: number;
}

export interface ResponseUrlCall {
  id: string;
  body: Record<string, unknown>;
  at: number;
}

type Handler = (args: Record<string, unknown>, call: SlackApiCall) => unknown | Promise<unknown>;

/**
 * A stand-in for Slack on 127.0.0.1: the Web API (`/api/<method>`, reached by the real
 * @slack/web-api client through SLACK_API_URL) and response URLs (`/respond/<id>`). It records every
 * call, answers with plausible defaults, and lets a test replace any method's answer.
 */
export class FakeSlack {
  readonly calls: SlackApiCall[] = [];
  readonly responses: ResponseUrlCall[] = [];
  readonly userGroups = new Map<string, string[]>();
  private readonly handlers = new Map<string, Handler>();
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

  callsOf(method: string): SlackApiCall[] {
    return this.calls.filter((c) => c.method === method);
  }

  responsesTo(id: string): ResponseUrlCall[] {
    return this.responses.filter((r) => r.id === id);
  }

  async close(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', this.url);
    const respondMatch = /^\/respond\/(.+)$/.exec(url.pathname);
    if (respondMatch) {
      this.responses.push({ id: decodeURIComponent(respondMatch[1]!), body: raw ? JSON.parse(raw) : {}, at: Date.now() });
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
    const call: SlackApiCall = { method, args, headers: req.headers, at: Date.now() };
    this.calls.push(call);
    const handler = this.handlers.get(method);
    const answer = handler ? await handler(args, call) : this.defaultAnswer(method, args);
    if (answer && typeof answer === 'object' && 'httpStatus' in answer) {
      const { httpStatus, headers, body } = answer as { httpStatus: number; headers?: Record<string, string>; body?: unknown };
      res.writeHead(httpStatus, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body ?? {}));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
  }

  private defaultAnswer(method: string, args: Record<string, unknown>): unknown {
    switch (method) {
      case 'auth.test':
        return { ok: true, url: 'https://fake.slack.test/', team: 'Fake', user: 'pixops', team_id: 'T0FAKE', user_id: 'U0BOT', bot_id: 'B0BOT' };
      case 'usergroups.users.list':
        return { ok: true, users: this.userGroups.get(String(args.usergroup)) ?? [] };
      case 'chat.postMessage': {
        const ts = `${1_700_000_000 + this.tsCounter++}.000100`;
        return { ok: true, channel: args.channel, ts, message: { ...args, ts } };
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
