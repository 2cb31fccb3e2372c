/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // Transpile only (isolatedModules in tsconfig.json): types are checked by tsc in `pretest`.
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 30000,
  // Three workers on two cores: most of a test's time is waiting on sockets, timers and child
  // processes, not CPU (the whole suite here: about 3.5 minutes, against 4.7 with two workers and 5.5
  // with jest's default of one).
  maxWorkers: 3,
  // Every payload the app sends the fake Slack is checked as Slack checks it: a refusal fails the test.
  setupFilesAfterEnv: ['<rootDir>/test/support/jest-setup.ts'],
  // The process-based suites run dist/src/main.js: rebuilt once here when older than its sources.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
};
