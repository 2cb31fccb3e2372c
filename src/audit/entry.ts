import { z } from 'zod';
import { maskPixKey } from '../domain/pix-key-mask';
import { PixOpsError } from '../errors';
import type { PixCallSubject } from '../pix/client';

/**
 * How an entry ended. An entry point's use: `ok`, `failed` (the Pix API said no, or could not be
 * reached), `error` (anything else went wrong), `usage` (wrong arguments), `refused` (the role, or an
 * approval rule). A Pix call: `ok` (2xx) or `failed`. An approval's steps: `pending`, `approved`,
 * `rejected`, `cancelled`, `expired`, `escalated`.
 */
export const AUDIT_OUTCOMES = [
  'ok',
  'failed',
  'error',
  'usage',
  'refused',
  'pending',
  'approved',
  'rejected',
  'cancelled',
  'expired',
  'escalated',
] as const;
export type AuditOutcome = (typeof AUDIT_OUTCOMES)[number];

/** One line of the audit trail. Nothing in it is secret, and Pix keys in it are masked (see `buildEntry`). */
export const AuditEntrySchema = z.object({
  /** When it was recorded, UTC, ISO 8601 with milliseconds. */
  time: z.string(),
  /** Slack user ID of who acted. */
  user: z.string(),
  /** Their role then (`none` for a user without one). */
  role: z.enum(['viewer', 'operator', 'admin', 'none']),
  /** The entry point: `/pix key delete`, `action:pix_key_delete_confirm`, `view:pix_key_add`, … */
  action: z.string(),
  /** What it was about: `account:…`, `request:…`, `application:…`, `key:<masked>`, … */
  target: z.string().optional(),
  pixMethod: z.string().optional(),
  pixPath: z.string().optional(),
  pixStatus: z.number().int().optional(),
  /** For an approved (or rejected, cancelled, expired) action: who asked, and who decided. */
  maker: z.string().optional(),
  checker: z.string().optional(),
  outcome: z.enum(AUDIT_OUTCOMES),
  /** A short word on the outcome (`needs admin`, `attempt 2`, …); never text from the Pix API or a user. */
  detail: z.string().optional(),
});
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

/** An entry as the trail gives it back, with its place in the trail (opaque; ordered within a backend). */
export type StoredAuditEntry = AuditEntry & { id: string };

/** What an entry can be about: what a Pix call is about, an approval, an exported period, a delegate while away. */
export type AuditTarget = PixCallSubject & { approval?: string; period?: string; delegate?: string };

/** The order targets are written in, and the word each is written with. */
const TARGET_WORDS: Array<[keyof AuditTarget, string]> = [
  ['account', 'account'],
  ['request', 'request'],
  ['application', 'application'],
  ['pixKey', 'key'],
  ['subscription', 'subscription'],
  ['dispute', 'dispute'],
  ['transaction', 'transaction'],
  ['approval', 'approval'],
  ['period', 'period'],
  ['delegate', 'delegate'],
];

/** `account:6840… key:***.982.247-**`: every part of a target, the Pix key masked. */
export function targetText(target: AuditTarget): string | undefined {
  const parts: string[] = [];
  for (const [field, word] of TARGET_WORDS) {
    const value = target[field];
    if (!value) continue;
    parts.push(`${word}:${field === 'pixKey' ? maskPixKey(value) : value}`);
  }
  return parts.length > 0 ? parts.join(' ') : undefined;
}

/** A Pix path with the key it names masked (`DELETE /api/v1/pix-keys/<key>`). */
export function maskedPixPath(path: string, pixKey: string | undefined): string {
  if (!pixKey) return path;
  const segments = path.split('/');
  const last = segments.length - 1;
  if (segments[last] === encodeURIComponent(pixKey)) segments[last] = maskPixKey(pixKey);
  return segments.join('/');
}

const LIMITS: Partial<Record<keyof AuditEntry, number>> = {
  user: 40,
  action: 120,
  target: 400,
  pixMethod: 10,
  pixPath: 300,
  maker: 40,
  checker: 40,
  detail: 200,
};

/**
 * The entry as it is stored: every text cut to a sane length and passed through `scrub` (every
 * secret the app knows — tokens, AppIDs, client secrets — replaced), a second net under the rule
 * that nothing secret is ever put in an entry.
 */
export function buildEntry(entry: AuditEntry, scrub: (text: string) => string): AuditEntry {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry) as Array<[keyof AuditEntry, unknown]>) {
    if (value === undefined || value === '') continue;
    if (typeof value !== 'string') {
      out[key] = value;
      continue;
    }
    const limit = LIMITS[key];
    const clean = scrub(value);
    out[key] = limit !== undefined && clean.length > limit ? `${clean.slice(0, limit - 1)}…` : clean;
  }
  return AuditEntrySchema.parse(out);
}

const ROLES_READ: ReadonlySet<unknown> = new Set(AuditEntrySchema.shape.role.options);
const OUTCOMES_READ: ReadonlySet<unknown> = new Set(AUDIT_OUTCOMES);
const OPTIONAL_TEXT = ['target', 'pixMethod', 'pixPath', 'maker', 'checker', 'detail'] as const;

/** An entry read back from the trail is not one: a field missing or of the wrong kind. */
export class MalformedAuditEntryError extends PixOpsError {
  readonly code = 'pixops_audit_entry_malformed';
}

/**
 * An entry read back from the trail, from its stored fields (named as in AuditEntry; absent ones
 * null or missing; `pixStatus` a number or its digits). Entries are checked against
 * AuditEntrySchema when they are built (buildEntry) and never changed after, so here they are only
 * checked field by field, without the copy zod's parse makes of each: an export reads 100,000 of
 * them, and those copies were most of its memory (bench/audit.ts).
 */
export function storedEntry(id: string, fields: Record<string, unknown>): StoredAuditEntry {
  const { time, user, role, action, outcome, pixStatus } = fields;
  if (
    typeof time !== 'string' ||
    typeof user !== 'string' ||
    typeof action !== 'string' ||
    !ROLES_READ.has(role) ||
    !OUTCOMES_READ.has(outcome)
  ) {
    throw new MalformedAuditEntryError(`Audit entry ${id} is not an entry`);
  }
  const entry: StoredAuditEntry = { id, time, user, role: role as AuditEntry['role'], action, outcome: outcome as AuditOutcome };
  for (const field of OPTIONAL_TEXT) {
    const value = fields[field];
    if (typeof value === 'string') entry[field] = value;
    else if (value !== null && value !== undefined) throw new MalformedAuditEntryError(`Audit entry ${id} has a bad ${field}`);
  }
  if (pixStatus !== null && pixStatus !== undefined) {
    const status = Number(pixStatus);
    if (!Number.isInteger(status)) throw new MalformedAuditEntryError(`Audit entry ${id} has a bad pixStatus`);
    entry.pixStatus = status;
  }
  return entry;
}
