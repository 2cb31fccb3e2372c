/** Slack's error code of a failed Web API call (`not_in_channel`, `ratelimited`, …), when it is one. */
export function slackErrorCode(err: unknown): string | undefined {
  const data = (err as { data?: { error?: unknown } } | undefined)?.data;
  return typeof data?.error === 'string' ? data.error : undefined;
}
