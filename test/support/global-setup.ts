import { rebuildIfStale } from './dist-build';

/** Once per jest run: the process-based suites run dist/src/main.js, so it is rebuilt first when stale. */
export default function globalSetup(): void {
  rebuildIfStale();
}
