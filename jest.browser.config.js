// Real-browser tests (headless Chromium driven by playwright-core): `npm run test:browser`.
// Kept out of `npm test` because a newcomer's machine may have no Chromium; .ci/run installs
// it and runs these. A missing Chromium fails the run.
const base = require('./jest.config');

/** @type {import('jest').Config} */
module.exports = {
  ...base,
  roots: ['<rootDir>/test/browser'],
  testMatch: ['**/*.browser.ts'],
  testTimeout: 120000,
  maxWorkers: 1,
};
