import type { IncomingMessage } from 'node:http';
import type { Params, Reply, Router } from './http';
import type { Scope } from './scopes';
import type { Application, SandboxState } from './state';
import type { SandboxWebhooks } from './webhooks';

/** One `/api/v1` request as the call log records it. */
export interface SandboxCall {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  /** The Accept header, when sent. */
  accept?: string;
  /**
   * Parsed JSON (raw text if unparseable; a note of its size past LOGGED_BODY_BYTES); for uploads
   * `{ purpose, fileName, contentType, size }`.
   */
  body: unknown;
  at: number;
  /**
   * When its request began to arrive, and when its answer was handed to the socket: milliseconds
   * since the epoch, to the microsecond (`performance.timeOrigin + performance.now()`, the Slack
   * stand-in's clock), so that a benchmark tells the Pix API's part of a caller's time from the
   * caller's own, from outside the client.
   */
  receivedAt: number;
  answeredAt?: number;
}

/** What an `/api/v1` handler gets once the caller is authenticated and its scope checked. */
export interface ApiContext {
  state: SandboxState;
  /** Undefined only on a public route. */
  caller: Application;
  params: Params;
  query: Record<string, string>;
  req: IncomingMessage;
  call: SandboxCall;
  /** Base URL of the sandbox, for links it hands out. */
  baseUrl: string;
  webhooks: SandboxWebhooks;
  /** The JSON body; throws 400 when it is not JSON. */
  body(): unknown;
}

export interface ApiRoute {
  scope?: Scope;
  /** Served without an AppID (the webhook public keys). */
  public?: boolean;
  handle(ctx: ApiContext): Reply | Promise<Reply>;
}

export type ApiRouter = Router<ApiRoute>;
