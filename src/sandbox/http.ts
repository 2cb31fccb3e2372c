import type { IncomingMessage, ServerResponse } from 'node:http';

/** Tiny HTTP helpers: replies, errors that carry a reply, body reading and a path router. */

export interface Reply {
  status: number;
  json?: unknown;
  bytes?: Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

export function jsonReply(status: number, json: unknown, headers?: Record<string, string>): Reply {
  return headers ? { status, json, headers } : { status, json };
}

/** Thrown anywhere in a handler to end the request with `reply`. */
export class HttpError extends Error {
  constructor(readonly reply: Reply) {
    super(`HTTP ${reply.status}`);
  }
}

/** The `{ error }` body of the interface (plus `errorCode` where it names one). */
export function fail(status: number, error: string, errorCode?: string): HttpError {
  return new HttpError(jsonReply(status, errorCode === undefined ? { error } : { error, errorCode }));
}

export function sendReply(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload: Buffer | undefined;
  if (reply.bytes !== undefined) {
    payload = reply.bytes;
    headers['content-type'] = reply.contentType ?? 'application/octet-stream';
  } else if (reply.json !== undefined) {
    payload = Buffer.from(JSON.stringify(reply.json));
    headers['content-type'] = 'application/json; charset=utf-8';
  }
  if (payload !== undefined) headers['content-length'] = String(payload.length);
  res.writeHead(reply.status, headers);
  res.end(payload);
}

export function isMultipart(req: IncomingMessage): boolean {
  return (req.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data');
}

/** Reads a (non-multipart) body up to `maxBytes`; beyond that the rest is discarded and 413 is thrown. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        req.off('data', onData);
        req.resume();
        reject(fail(413, 'Request body too large'));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Parses a JSON body; an empty body is `undefined` so schemas report the missing fields. */
export function parseJson(raw: Buffer): unknown {
  if (raw.length === 0) return undefined;
  try {
    return JSON.parse(raw.toString('utf8')) as unknown;
  } catch {
    throw fail(400, 'Invalid JSON body');
  }
}

export type Params = Record<string, string>;

interface Route<H> {
  method: string;
  pattern: RegExp;
  keys: string[];
  handler: H;
}

/** Matches `METHOD /a/:b/c` patterns in registration order, so specific paths go first. */
export class Router<H> {
  private readonly routes: Route<H>[] = [];

  add(method: string, path: string, handler: H): this {
    const keys: string[] = [];
    const source = path
      .split('/')
      .map((segment) => {
        if (!segment.startsWith(':')) return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        keys.push(segment.slice(1));
        return '([^/]+)';
      })
      .join('/');
    this.routes.push({ method, pattern: new RegExp(`^${source}/?$`), keys, handler });
    return this;
  }

  match(method: string, pathname: string): { handler: H; params: Params } | undefined {
    for (const route of this.routes) {
      if (route.method !== method) continue;
      const m = route.pattern.exec(pathname);
      if (!m) continue;
      const params: Params = {};
      route.keys.forEach((key, i) => {
        params[key] = decodeSegment(m[i + 1] ?? '');
      });
      return { handler: route.handler, params };
    }
    return undefined;
  }
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw fail(400, 'Malformed path');
  }
}
