import { fail } from './http';
import { isWellFormed } from './pix-key-format';
import type { Company, DictEntry, LookupBucket, SandboxState, WithdrawKeyType } from './state';
import { endToEndId } from './webhooks';

/**
 * DICT look-ups and the company's look-up tokens, by the service's published rules: a key found costs
 * 1 token, a key not found (or refused as malformed, or a 429 of the DICT) 20, a key the service has
 * cached nothing; under 20 tokens every look-up (and payment) is refused before reaching the DICT;
 * paying a key that was looked up gives 2 back. Times are the sandbox clock's.
 */

const REFRESH_EVERY_MS = 60_000;
export const MIN_TOKENS = 20;
const FOUND_COST = 1;
const MISS_COST = 20;
export const PAID_REFUND = 2;
/** "A found key for as long as the DICT says": the sandbox's DICT says half an hour. */
export const FOUND_CACHE_MS = 30 * 60_000;
export const MISSING_CACHE_MS = 5 * 60_000;
/** How long a key check's `pixKeyEndToEndId` spares a payment to that key its own look-up. */
export const CHECK_VALID_MS = 15 * 60_000;

/** The bucket brought up to date with the refills due since its last one. */
export function refreshed(bucket: LookupBucket, now: number): LookupBucket {
  const periods = Math.floor((now - bucket.refilledAt) / REFRESH_EVERY_MS);
  if (periods > 0) {
    bucket.tokens = Math.min(bucket.maxTokens, bucket.tokens + periods * bucket.refreshRate);
    bucket.refilledAt += periods * REFRESH_EVERY_MS;
  }
  return bucket;
}

/**
 * The body of `GET /api/v1/pix-keys/tokens`. `nextRefresh` is an ISO 8601 time (the reference types it a
 * string without showing its form; clients read epoch milliseconds too).
 */
export function tokensView(state: SandboxState, company: Company): Record<string, unknown> {
  const bucket = refreshed(company.lookups, state.clock.now());
  return {
    tokens: bucket.tokens,
    maxTokens: bucket.maxTokens,
    nextRefresh: new Date(bucket.refilledAt + REFRESH_EVERY_MS).toISOString(),
    tokensAfterRefresh: Math.min(bucket.maxTokens, bucket.tokens + bucket.refreshRate),
    refreshRate: bucket.refreshRate,
  };
}

function tooManyRequests(): Error {
  return fail(429, 'Too many Pix key look-ups: wait for the look-up tokens to refill', 'TOO_MANY_REQUESTS');
}

/** Refuses (429) a look-up or a payment of a company with under 20 tokens: nothing reaches the DICT. */
export function requireTokens(state: SandboxState, company: Company): void {
  if (refreshed(company.lookups, state.clock.now()).tokens < MIN_TOKENS) throw tooManyRequests();
}

function spend(company: Company, cost: number): void {
  company.lookups.tokens = Math.max(0, company.lookups.tokens - cost);
}

/** Tokens given back (a payment made to a key that was looked up), never above the bucket's size. */
export function giveBack(state: SandboxState, company: Company, tokens: number): void {
  const bucket = refreshed(company.lookups, state.clock.now());
  bucket.tokens = Math.min(bucket.maxTokens, bucket.tokens + tokens);
}

/**
 * Looks `key` (of `type`) up for `company`, spending its tokens: its DICT entry, or undefined when no
 * bank has it. Throws 429 under 20 tokens or when the DICT answers 429, and 400 for a malformed key.
 */
export function lookUp(state: SandboxState, company: Company, key: string, type: WithdrawKeyType | undefined): DictEntry | undefined {
  requireTokens(state, company);
  if (type === undefined || !isWellFormed(key, type)) {
    spend(company, MISS_COST);
    throw fail(400, 'Invalid Pix key', 'INVALID_PIX_KEY');
  }
  const now = state.clock.now();
  const cached = state.dictCache.get(key);
  if (cached && cached.until > now) return cached.found ? state.dict.get(key) : undefined;
  if (state.dictTooManyRequests > 0) {
    state.dictTooManyRequests--;
    spend(company, MISS_COST);
    throw tooManyRequests();
  }
  const entry = state.dict.get(key);
  spend(company, entry ? FOUND_COST : MISS_COST);
  state.dictCache.set(key, { found: entry !== undefined, until: now + (entry ? FOUND_CACHE_MS : MISSING_CACHE_MS) });
  return entry;
}

/** Records a check of `pixKey` and returns its `pixKeyEndToEndId`. */
export function recordCheck(state: SandboxState, company: Company, pixKey: string): string {
  const now = state.clock.now();
  // Long-running (the bot's in-process sandbox): checks past their use are dropped as new ones come.
  // Kept in time order (the clock only moves forward), so the expired ones come first.
  for (const [id, check] of state.keyChecks) {
    if (check.at + CHECK_VALID_MS > now) break;
    state.keyChecks.delete(id);
  }
  const id = endToEndId(state.clock.date());
  state.keyChecks.set(id, { companyId: company.id, pixKey, at: now });
  return id;
}

/** Whether `pixKeyEndToEndId` is the company's recent check of `pixKey`. */
export function isRecentCheck(state: SandboxState, company: Company, pixKeyEndToEndId: string | undefined, pixKey: string): boolean {
  if (pixKeyEndToEndId === undefined) return false;
  const check = state.keyChecks.get(pixKeyEndToEndId);
  return check?.companyId === company.id && check.pixKey === pixKey && check.at + CHECK_VALID_MS > state.clock.now();
}
