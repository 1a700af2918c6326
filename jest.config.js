// Every test runs against a real database: embedded PGlite by default, PostgreSQL when
// DATABASE_URL is set (see test/support/database.ts).
// Tests that need PostgreSQL itself (clusters they start, stop and replicate; several
// processes on one database) belong to the PostgreSQL leg: left out of the PGlite run
// rather than skipped inside it.
const POSTGRES_ONLY = [
  'test/http/database-fault.test.ts',
  'test/db/read-replicas.test.ts',
  'test/http/workers.test.ts',
  'test/events/relay-takeover.test.ts',
  'test/rest/races.test.ts',
  'test/events/relay-background.test.ts',
];

// An ESM-only package the tests load through require() (light-my-request's cookie). Jest
// requires ESM natively from Node 24.9; before (Node 22 is supported too) it is compiled to
// CommonJS by test/support/commonjs-transform.cjs.
const ESM_ONLY = '/node_modules/light-my-request/node_modules/cookie/.+\\.js$';
const [major, minor] = process.versions.node.split('.').map(Number);
const nativeRequireEsm = major > 24 || (major === 24 && minor >= 9);

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...(process.env.DATABASE_URL ? [] : POSTGRES_ONLY)],
  transform: {
    ...(nativeRequireEsm ? {} : { [ESM_ONLY]: '<rootDir>/test/support/commonjs-transform.cjs' }),
    '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { target: 'es2022' } }],
  },
  // Before Node 24.9 the package above is compiled (its path holds /node_modules/ twice).
  transformIgnorePatterns: [nativeRequireEsm ? '/node_modules/' : '/node_modules/(?!light-my-request/node_modules/cookie/|cookie/dist/)'],
  testTimeout: 60000,
  maxWorkers: 2,
};
