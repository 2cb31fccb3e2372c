/**
 * A failure's message, for a log line or a message that quotes it. Never the whole error object: a
 * failed HTTP call's error carries its request config, headers (AppIDs, tokens) included.
 */
export const errorText = (err: unknown): string => (err instanceof Error ? err.message : String(err));
