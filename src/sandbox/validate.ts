import type { z } from 'zod';
import { fail } from './http';

/**
 * Parses `value` with `schema` or throws 400 with the first problem as `<path> <message>`
 * (the style of the interface's own `documents At least one document is required`).
 * `label` names `value` itself when it is a single field rather than a whole body.
 */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, label?: string): z.output<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = [...(label === undefined ? [] : [label]), ...(issue?.path.map(String) ?? [])].join('.');
  const message = issue?.message ?? 'Invalid request';
  throw fail(400, path ? `${path} ${message}` : message);
}
