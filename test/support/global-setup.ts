import { rebuildIfStale } from './dist-build';
import { missingNeeds } from './preflight';

/**
 * Once per jest run, before any worker starts: what the tests need on this machine is there (else each
 * missing one is named with how to get it, instead of suites failing later on connection errors), and
 * dist/ is rebuilt when stale (the process-based suites run dist/src/main.js).
 */
export default async function globalSetup(): Promise<void> {
  const missing = await missingNeeds();
  if (missing.length > 0) {
    throw new Error(`The tests need what this machine lacks:\n${missing.join('\n')}`);
  }
  rebuildIfStale();
}
