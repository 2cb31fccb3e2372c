import pino, { type Logger } from 'pino';

export type { Logger };

const REDACT_PATHS = [
  'authorization',
  'headers.authorization',
  'headers.Authorization',
  '*.authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  'token',
  '*.token',
  'appId',
  '*.appId',
  'appID',
  '*.appID',
  'clientSecret',
  '*.clientSecret',
  'secret',
  '*.secret',
];

/**
 * The password in a URL's userinfo (`postgres://user:password@host`, `redis://:password@host`), as a
 * line carries it (JSON-escaped in a log line): everything up to the last `@` before the host. The
 * user part stops at its `:`; the password may hold anything but a space or a `/` (a quote or a
 * backslash only as the line escapes them).
 */
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s:@/"\\]*:)((?:\\.|[^\s/"\\])+)@/gi;

/**
 * Secrets are redacted twice: by field name (pino's `redact`), and by value in the written line, so
 * that a token that slips into a message or an error text is still never written. A URL's password is
 * redacted where it stands, whatever its length: one shorter than the registry keeps (a STORE_URL's
 * `postgres://pix:abc@…`) would otherwise be written whole.
 */
export class SecretRegistry {
  private readonly values = new Set<string>();

  add(value: string | undefined): void {
    // Very short values would redact ordinary words; no real token or AppID is that short.
    if (value && value.length >= 8) this.values.add(value);
  }

  scrub(line: string): string {
    let out = line.replace(URL_PASSWORD, '$1[REDACTED]@');
    for (const value of this.values) {
      if (out.includes(value)) out = out.split(value).join('[REDACTED]');
      const json = JSON.stringify(value).slice(1, -1);
      if (json !== value && out.includes(json)) out = out.split(json).join('[REDACTED]');
    }
    return out;
  }
}

export function createLogger(options: { level?: string; secrets?: SecretRegistry; destination?: pino.DestinationStream } = {}): Logger {
  const secrets = options.secrets;
  return pino(
    {
      level: options.level ?? 'info',
      base: { app: 'pix-ops' },
      redact: { paths: REDACT_PATHS, censor: '[REDACTED]' },
      ...(secrets ? { hooks: { streamWrite: (line: string) => secrets.scrub(line) } } : {}),
    },
    options.destination ?? pino.destination(1),
  );
}
