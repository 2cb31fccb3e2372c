import { PixOpsError } from '../errors';

/** Something that must answer within a time did not (or no time was left to start it). */
export class DeadlinePassedError extends PixOpsError {
  readonly code = 'pixops_deadline_passed';
}

/**
 * `promise`, or a rejection once `ms` have passed without it settling. The timer is cleared as soon as
 * the promise settles and never keeps the process alive.
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, message = `no answer within ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new DeadlinePassedError(message)), ms);
      timer.unref();
    }),
  ]);
}
