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
];

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', ...(process.env.DATABASE_URL ? [] : POSTGRES_ONLY)],
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testTimeout: 60000,
  maxWorkers: 2,
};
