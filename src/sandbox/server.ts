import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { authenticate, requireScope } from './auth';
import type { ApiRouter, SandboxCall } from './context';
import { controlRouter } from './control';
import type { Faults } from './faults';
import { fail, HttpError, isMultipart, jsonReply, parseJson, type Reply, readBody, sendReply } from './http';
import { apiRouter } from './routes';
import type { SandboxCompany } from './seed';
import type { SandboxState } from './state';
import type { SandboxWebhooks } from './webhooks';

/** JSON bodies are small; uploads are multipart and streamed separately. */
const MAX_JSON_BYTES = 1024 * 1024;
/** The call log keeps the latest calls only, and no body bigger than this: a long run stays small. */
export const DEFAULT_MAX_LOGGED_CALLS = 5_000;
const LOGGED_BODY_BYTES = 64 * 1024;
/** Now, in milliseconds since the epoch to the microsecond (see SandboxCall's receivedAt). */
const preciseNow = () => performance.timeOrigin + performance.now();

export interface ServerDeps {
  state: SandboxState;
  companies: { main: SandboxCompany; other: SandboxCompany };
  calls: SandboxCall[];
  /** How many calls the log keeps (the oldest go first). */
  maxLoggedCalls: number;
  faults: Faults;
  webhooks: SandboxWebhooks;
  /** Known only once the server listens. */
  baseUrl(): string;
}

export function createSandboxServer(deps: ServerDeps): Server {
  const api = apiRouter();
  const control = controlRouter();
  return createServer((req, res) => {
    void dispatch(req, res, deps, api, control).then((reply) => sendReply(res, reply));
  });
}

async function dispatch(
  req: IncomingMessage,
  res: ServerResponse,
  deps: ServerDeps,
  api: ApiRouter,
  control: ReturnType<typeof controlRouter>,
): Promise<Reply> {
  const url = new URL(req.url ?? '/', 'http://sandbox');
  const method = req.method ?? 'GET';
  try {
    if (url.pathname === '/api/v1' || url.pathname.startsWith('/api/v1/')) return await handleApi(req, res, url, method, deps, api);
    if (url.pathname.startsWith('/sandbox/')) {
      const match = control.match(method, url.pathname);
      if (!match) throw fail(404, 'Not found');
      const raw = await readBody(req, MAX_JSON_BYTES);
      return await match.handler({ ...deps, baseUrl: deps.baseUrl(), params: match.params, body: () => parseJson(raw) });
    }
    throw fail(404, 'Not found');
  } catch (error) {
    if (error instanceof HttpError) return error.reply;
    console.error('sandbox: unexpected error', error);
    return jsonReply(500, { error: 'Internal sandbox error' });
  }
}

/** Order: log the call, inject latency and faults, route, authenticate, check the scope, handle, answer (late, or failed after the write, if asked). */
async function handleApi(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  method: string,
  deps: ServerDeps,
  api: ApiRouter,
): Promise<Reply> {
  const receivedAt = preciseNow();
  const query = Object.fromEntries(url.searchParams);
  const call: SandboxCall = {
    method,
    path: url.pathname,
    query,
    authorization: req.headers.authorization,
    ...(req.headers.accept ? { accept: req.headers.accept } : {}),
    body: undefined,
    at: Date.now(),
    receivedAt,
  };
  res.once('finish', () => {
    call.answeredAt = preciseNow();
  });
  deps.calls.push(call);
  if (deps.calls.length > deps.maxLoggedCalls) deps.calls.splice(0, deps.calls.length - deps.maxLoggedCalls);
  // Multipart bodies are left for the upload route to stream; everything else is JSON.
  const raw = isMultipart(req) ? undefined : await readBody(req, MAX_JSON_BYTES);
  if (raw !== undefined) call.body = loggedBody(raw);

  const limited = deps.faults.takeRateLimit(call.authorization, call.at);
  if (limited) return limited;
  if (deps.faults.latencyMs > 0) await sleep(deps.faults.latencyMs);
  const failure = deps.faults.takeFailure(method, url.pathname);
  if (failure) return failure;

  const match = api.match(method, url.pathname);
  if (!match) throw fail(404, 'Not found');
  // A public route is served to anyone; its handler never reads `caller`.
  const caller = match.handler.public ? (undefined as never) : authenticate(deps.state, call.authorization);
  if (match.handler.scope) requireScope(caller, match.handler.scope);
  const reply = await match.handler.handle({
    state: deps.state,
    caller,
    params: match.params,
    query,
    req,
    call,
    baseUrl: deps.baseUrl(),
    webhooks: deps.webhooks,
    body: () => {
      if (raw === undefined) throw fail(400, 'Expected a JSON body');
      return parseJson(raw);
    },
  });
  // Done, but answered too late for a client with a time limit, or with an error: it cannot know that it was done.
  const lateMs = deps.faults.takeLateAnswer(method, url.pathname);
  if (lateMs > 0) await sleep(lateMs);
  return deps.faults.takeFailure(method, url.pathname, true) ?? reply;
}

function loggedBody(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  if (raw.length > LOGGED_BODY_BYTES) return `(${raw.length} bytes, not kept)`;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    return raw.toString('utf8');
  }
}
