import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, requirePrivateClusters, startPrimary, type PgCluster } from '../support/pg-cluster';
import { startService, type RunningService } from '../support/service';

// TLS to PostgreSQL as managed databases require it: a private cluster with `ssl = on` and a
// server certificate (for 127.0.0.1 only) signed by a CA this test makes with openssl. The
// service started with sslmode=verify-full and that CA (in the URL, or PGSSLROOTCERT)
// connects over TLS; with another CA, or a host name the certificate does not name
// (127.0.0.2, the same server), it refuses to start: exit code 1, a message naming the TLS
// failure, no stack trace, no password.

const DB = 'tls';
const PASSWORD = 'not-to-be-printed-7f3a';
let certs: string;
let primary: PgCluster;

function openssl(args: string[]): void {
  execFileSync('openssl', args, { cwd: certs, stdio: 'pipe' });
}

/** A self-signed CA: <name>.crt and <name>.key in the certs folder. */
function makeCa(name: string): void {
  openssl([
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-keyout',
    `${name}.key`,
    '-out',
    `${name}.crt`,
    '-days',
    '2',
    '-subj',
    `/CN=Billing test ${name}`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign',
  ]);
}

const url = (host: string, params: string) => `postgresql://postgres:${PASSWORD}@${host}:${primary.port}/${DB}?${params}`;

async function exitOf(svc: RunningService): Promise<number | null> {
  if (svc.child.exitCode !== null) return svc.child.exitCode;
  return new Promise((resolve) => svc.child.once('exit', resolve));
}

describe('TLS to PostgreSQL (sslmode=verify-full)', () => {
  beforeAll(async () => {
    requirePrivateClusters();
    certs = fs.mkdtempSync(path.join(os.tmpdir(), 'pg-tls-'));
    makeCa('ca');
    makeCa('other-ca');
    openssl([
      'req',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      '/CN=127.0.0.1',
    ]);
    fs.writeFileSync(
      path.join(certs, 'server.ext'),
      'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n',
    );
    openssl([
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.crt',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.crt',
      '-days',
      '2',
      '-extfile',
      'server.ext',
    ]);
    primary = startPrimary(await freePort(), {
      files: {
        'server.crt': fs.readFileSync(path.join(certs, 'server.crt')),
        'server.key': fs.readFileSync(path.join(certs, 'server.key')),
      },
      // 127.0.0.2 is this same server under a name its certificate does not carry.
      settings: ["listen_addresses = '127.0.0.1,127.0.0.2'", 'ssl = on', "ssl_cert_file = 'server.crt'", "ssl_key_file = 'server.key'"],
    });
    await primary.query(`CREATE DATABASE ${DB}`);
  }, 120_000);

  afterAll(() => {
    primary?.destroy();
    if (certs) fs.rmSync(certs, { recursive: true, force: true });
  });

  it('connects with the CA in the URL (sslrootcert), and every connection of the service is TLS', async () => {
    const svc = startService(await freePort(), {
      DATABASE_URL: url('127.0.0.1', `sslmode=verify-full&sslrootcert=${path.join(certs, 'ca.crt')}`),
    });
    try {
      expect(await svc.ready(60_000)).toBe(true);
      const rows = await primary.query<{ ssl: boolean; n: number }>(
        'SELECT s.ssl, count(*)::int AS n FROM pg_stat_activity a JOIN pg_stat_ssl s USING (pid) WHERE a.datname = $1 AND a.pid <> pg_backend_pid() GROUP BY s.ssl',
        [DB],
      );
      expect(rows).toEqual([{ ssl: true, n: expect.any(Number) }]);
    } finally {
      expect(await svc.stop()).toBe(0);
    }
  }, 90_000);

  it('connects with the CA in PGSSLROOTCERT', async () => {
    const svc = startService(await freePort(), {
      DATABASE_URL: url('127.0.0.1', 'sslmode=verify-full'),
      PGSSLROOTCERT: path.join(certs, 'ca.crt'),
    });
    try {
      expect(await svc.ready(60_000)).toBe(true);
    } finally {
      expect(await svc.stop()).toBe(0);
    }
  }, 90_000);

  it.each([
    [
      'a certificate from another CA',
      '127.0.0.1',
      'other-ca.crt',
      /SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER_CERT/,
    ],
    ['a host name the certificate does not name', '127.0.0.2', 'ca.crt', /ERR_TLS_CERT_ALTNAME_INVALID/],
  ])(
    'refuses to start on %s: exit 1, the TLS failure named, no stack trace, no password',
    async (_what, host, ca, code) => {
      const svc = startService(await freePort(), {
        DATABASE_URL: url(host, `sslmode=verify-full&sslrootcert=${path.join(certs, ca)}`),
        DB_STARTUP_TIMEOUT_MS: '60000',
      });
      const exit = await exitOf(svc);
      const out = svc.output();
      expect(exit).toBe(1);
      expect(out).toMatch(/failed to start: TLS to PostgreSQL at 127\.0\.0\.[12]:\d+ failed: the server's certificate does not verify/);
      expect(out).toMatch(code);
      expect(out).not.toContain(PASSWORD);
      expect(out).not.toMatch(/\n\s+at /);
    },
    60_000,
  );
});
