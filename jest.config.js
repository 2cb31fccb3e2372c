/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Transpile only (isolatedModules in tsconfig.json): types are checked by tsc in `pretest`.
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 30000,
  // Four workers on two cores: most of a test's time is waiting on sockets, timers and child
  // processes, not CPU. On a quiet machine of two cores the whole suite took 230–242 s with four
  // workers, each file about as long as with three, against 281–300 s with three.
  maxWorkers: 4,
  // Every payload the app sends the fake Slack is checked as Slack checks it: a refusal fails the test.
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
  // The process-based suites run dist/src/main.js: rebuilt once here when older than its sources.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
};
