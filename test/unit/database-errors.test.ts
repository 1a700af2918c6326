import { Client } from 'pg';
import { connectFailure, databaseFailure, isDatabaseUnavailable, isStatementTimeout, isUniqueViolation } from '../../src/db/errors';
import { withRootCert } from '../../src/db/session';

// The one place that tells a database outage (503, retryable) from anything else, for the
// shapes both drivers and Prisma report. The fault test shows them end to end on PostgreSQL.

const adapterError = (cause: Record<string, unknown>) => ({ name: 'DriverAdapterError', cause });
const prismaKnown = (code: string, cause?: Record<string, unknown>) => ({ code, meta: cause ? { driverAdapterError: { cause } } : {} });

it.each([
  ['server unreachable (P1001)', prismaKnown('P1001', { kind: 'DatabaseNotReachable' })],
  ['no pool connection in time (P2024)', prismaKnown('P2024')],
  ['a transaction could not start in time under a burst of writes (P2028)', prismaKnown('P2028')],
  ['connection closed by the server', adapterError({ kind: 'ConnectionClosed' })],
  ['server shutting down (57P01)', adapterError({ kind: 'postgres', originalCode: '57P01' })],
  ['statement timeout inside a raw query (57014)', prismaKnown('P2010', { kind: 'postgres', originalCode: '57014' })],
  ['lock timeout (55P03)', adapterError({ kind: 'postgres', code: '55P03' })],
  ['pool acquisition timeout (node-postgres message)', new Error('timeout exceeded when trying to connect')],
  ['stalled server (client read timeout)', new Error('Query read timeout')],
  ['refused socket', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' })],
])('%s is SERVICE_UNAVAILABLE', (_label, e) => {
  expect(isDatabaseUnavailable(e)).toBe(true);
  expect(databaseFailure(e)).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503, retryAfter: 5 });
});

it.each([
  ['unique violation', prismaKnown('P2002')],
  ['unique violation on PGlite', adapterError({ code: '23505' })],
  ['a bug', new TypeError('x is undefined')],
  ['nothing', undefined],
])('%s is not an outage', (_label, e) => {
  expect(isDatabaseUnavailable(e)).toBe(false);
  expect(databaseFailure(e)).toBeUndefined();
});

it('tells a statement timeout apart (it is not retried on the primary after a replica)', () => {
  expect(isStatementTimeout(adapterError({ kind: 'postgres', originalCode: '57014' }))).toBe(true);
  expect(isStatementTimeout(adapterError({ kind: 'ConnectionClosed' }))).toBe(false);
  expect(isUniqueViolation(adapterError({ code: '23505' }))).toBe(true);
});

describe('start-up failures retrying cannot mend', () => {
  const url = 'postgresql://billing:pw-not-shown@db.internal:5432/billing?sslmode=verify-full';

  it('a CA file that cannot be read: named, with host and port, never the password', () => {
    let thrown: unknown;
    try {
      // node-postgres reads sslrootcert while it parses the URL.
      new Client({ connectionString: withRootCert(url, '/nonexistent/ca.pem') });
    } catch (e) {
      thrown = e;
    }
    const e = connectFailure(thrown, url);
    expect(e?.message).toMatch(/^TLS to PostgreSQL at db\.internal:5432: cannot read the file \/nonexistent\/ca\.pem .*ENOENT/);
    expect(e?.message).not.toContain('pw-not-shown');
  });

  it("PGSSLROOTCERT joins a URL that names no CA file; the URL's own sslrootcert wins", () => {
    expect(new URL(withRootCert(url, '/etc/ca.pem')).searchParams.get('sslrootcert')).toBe('/etc/ca.pem');
    expect(withRootCert(`${url}&sslrootcert=/own.pem`, '/etc/ca.pem')).toBe(`${url}&sslrootcert=/own.pem`);
    expect(withRootCert(url, undefined)).toBe(url);
  });

  it('an outage is not one of them (start-up waits for it)', () => {
    expect(connectFailure(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }), url)).toBeUndefined();
  });
});
