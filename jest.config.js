// Every test runs against a real database: embedded PGlite by default, PostgreSQL when
// DATABASE_URL is set (see test/support/database.ts).
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test', '<rootDir>/src'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { target: 'es2022' } }] },
  testTimeout: 60000,
  maxWorkers: 2,
};
