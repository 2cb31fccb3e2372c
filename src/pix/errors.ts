import { PixOpsError } from '../errors';

/**
 * The one error the Pix client throws. `kind` tells apart an answer from the API (`http`), no answer
 * at all (`network`, `timeout`: the caller cannot know whether a write happened) and an answer that
 * does not match the interface (`invalid_response`).
 */
export class PixApiError extends PixOpsError {
  override readonly name = 'PixApiError';
  readonly code = 'pixops_pix_api';

  constructor(
    readonly kind: 'http' | 'network' | 'timeout' | 'invalid_response',
    /** HTTP status; 0 when there was no answer. */
    readonly status: number,
    /** The API's own `error` text (or the first of `errors[].message`), when it sent one. */
    readonly error: string | undefined,
    readonly errorCode: string | undefined,
    readonly body: unknown,
    readonly operation: string,
    /** False when the request never left (the connection was refused, the host unknown). */
    readonly sent = true,
  ) {
    super(`${operation}: ${error ?? (kind === 'http' ? `HTTP ${status}` : kind)}`);
  }

  /** Builds the error from either error form of the service: `{ error }` or `{ errors: [{ message }] }`. */
  static fromResponse(operation: string, status: number, body: unknown): PixApiError {
    let error: string | undefined;
    let errorCode: string | undefined;
    if (body && typeof body === 'object') {
      const b = body as Record<string, unknown>;
      if (typeof b.error === 'string') error = b.error;
      else if (Array.isArray(b.errors)) {
        const first = b.errors.find((e): e is { message: string } => typeof e?.message === 'string');
        error = first?.message;
      } else if (typeof b.message === 'string') error = b.message;
      if (typeof b.errorCode === 'string') errorCode = b.errorCode;
    } else if (typeof body === 'string' && body.trim() !== '' && body.length < 500 && !body.trimStart().startsWith('<')) {
      error = body.trim();
    }
    return new PixApiError('http', status, error, errorCode, body, operation);
  }

  /** The scope named by a 403 "does not have required scope: X", when there is one. */
  get missingScope(): string | undefined {
    if (this.status !== 403 || !this.error) return undefined;
    return /required scope:\s*([A-Z_]+)/.exec(this.error)?.[1];
  }

  get notFound(): boolean {
    return this.kind === 'http' && this.status === 404;
  }

  /**
   * Whether a write that failed this way may have happened all the same: no answer (unless nothing
   * was sent), an answer that could not be read, or a gateway's 502 or 504 (it got no answer from the
   * service). Any other answer is the service's own: what it refused, it did not do.
   */
  get mayHaveWritten(): boolean {
    switch (this.kind) {
      case 'timeout':
      case 'invalid_response':
        return true;
      case 'network':
        return this.sent;
      case 'http':
        return this.status === 502 || this.status === 504;
      default:
        // Every kind is answered above; the compiler says so if one is added.
        return this.kind satisfies never;
    }
  }

  /**
   * Which call, how it failed, and the API's own words and code (the contract keeps them; the log's
   * redaction takes out any AppID or secret): never the body or the request.
   */
  override describe(): Record<string, unknown> {
    const { error, errorCode } = this;
    return {
      pix: {
        operation: this.operation,
        kind: this.kind,
        status: this.status,
        ...(error ? { error } : {}),
        ...(errorCode ? { errorCode } : {}),
      },
    };
  }

  get unreachable(): boolean {
    return this.kind === 'network' || this.kind === 'timeout' || (this.kind === 'http' && this.status >= 500);
  }
}
