import request from 'supertest';
import { createTestApp, type TestApp, bearer } from '../support/app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ demoData: false });
  await t.db.close(); // every database call now fails
});
afterAll(async () => {
  await t.close();
});

describe('an unexpected failure', () => {
  it.each(['/api/v1/accounts', '/api/v1/payment-sources/00000000-0000-4000-8000-000000000001'])(
    '%s answers 500 INTERNAL without stack trace or SQL',
    async (path) => {
      const res = await request(t.http).get(path).set(bearer(t.tokens.reader)).expect(500);
      expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
      expect(res.body).toMatchObject({ status: 500, code: 'INTERNAL', title: 'Internal error' });
      expect(JSON.stringify(res.body)).not.toMatch(/SELECT|FROM "|\.ts:\d+|at \w+ \(|prisma/i);
    },
  );
  it('GraphQL answers INTERNAL with a fixed message', async () => {
    const res = await request(t.http)
      .post('/graphql')
      .set(bearer(t.tokens.reader))
      .send({ query: '{ accounts(first: 1) { nodes { id } } }' });
    expect(res.body.errors[0].extensions.code).toBe('INTERNAL');
    expect(JSON.stringify(res.body)).not.toMatch(/SELECT|FROM "|\.ts:\d+|stacktrace|prisma/i);
  });
});
