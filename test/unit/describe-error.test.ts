import { describeError } from '../../src/http/logger';

describe('describeError (what the logs may hold of an unexpected error)', () => {
  it('keeps kind and codes, drops SQL, row values and the stack', () => {
    const e = Object.assign(new Error('Invalid `prisma.customer.findMany()` invocation: SELECT "id" FROM "Customer" WHERE email = $1'), {
      code: 'P2010',
      cause: { originalCode: '23505', detail: 'Key (email)=(anna@example.org) already exists.' },
    });
    const d = describeError(e);
    expect(d).toEqual({ name: 'Error', code: 'P2010', sqlState: '23505', message: 'Invalid `prisma.customer.findMany()` invocation:' });
    expect(JSON.stringify(d)).not.toMatch(/SELECT|anna|at Object/);
  });
  it('describes a non-error throw by its type only', () => {
    expect(describeError('secret-token')).toEqual({ kind: 'string' });
  });
});
