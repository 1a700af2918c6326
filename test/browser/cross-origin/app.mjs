// A browser app on another origin than the service, as a front-end team would write it: plain
// fetch, urql and Apollo Client (bundled from node_modules by esbuild in the test). Each call
// is a check; the page shows them and marks itself passed or failed.
import { Client, cacheExchange, fetchExchange } from '@urql/core';
import { ApolloClient, HttpLink, InMemoryCache, gql } from '@apollo/client';

const { api, token } = await (await fetch('/config.json')).json();
const auth = { Authorization: `Bearer ${token}` };
const QUERY = '{ paymentSources(first: 3) { totalCount nodes { id code } } }';
const checks = {};

async function check(name, run) {
  try {
    checks[name] = { ok: true, value: await run() };
  } catch (e) {
    checks[name] = { ok: false, error: String((e && e.message) || e) };
  }
}

async function json(res) {
  if (!res.ok) throw new Error(`HTTP ${res.status}: ${await res.text()}`);
  return res.json();
}

await check('rest list', async () => {
  const res = await fetch(`${api}/api/v1/payment-sources?$top=2&$count=true`, { headers: auth });
  const body = await json(res);
  return {
    count: body['@odata.count'],
    rows: body.value.length,
    requestId: res.headers.get('X-Request-Id'),
    odataVersion: res.headers.get('OData-Version'),
  };
});

await check('rest record with its ETag', async () => {
  const list = await json(await fetch(`${api}/api/v1/payment-sources?$top=1&$select=id`, { headers: auth }));
  const res = await fetch(`${api}/api/v1/payment-sources/${list.value[0].id}`, { headers: auth });
  await json(res);
  return { etag: res.headers.get('ETag') };
});

await check('rest create with its Location', async () => {
  const filter = encodeURIComponent("type eq 'Asset' and isActive eq true");
  const accounts = await json(await fetch(`${api}/api/v1/accounts?$top=1&$filter=${filter}`, { headers: auth }));
  const res = await fetch(`${api}/api/v1/payment-sources`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      code: `BROWSER-${Date.now()}`,
      name: 'Made by a browser app',
      accountId: accounts.value[0].id,
      sourceType: 'Cash',
    }),
  });
  const created = await json(res);
  return { status: res.status, location: res.headers.get('Location'), id: created.id };
});

await check('rest error readable', async () => {
  const res = await fetch(`${api}/api/v1/payment-sources`);
  return { status: res.status, code: (await res.json()).code };
});

await check('graphql post', async () => {
  const res = await fetch(`${api}/graphql`, {
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify({ query: QUERY }),
  });
  const body = await json(res);
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return { totalCount: body.data.paymentSources.totalCount };
});

await check('graphql get as urql sends it', async () => {
  // urql 6: GET, no Content-Type, this Accept, the token in Authorization.
  const res = await fetch(`${api}/graphql?query=${encodeURIComponent(QUERY)}`, {
    headers: {
      ...auth,
      Accept: 'application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed',
    },
  });
  const body = await json(res);
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return { totalCount: body.data.paymentSources.totalCount };
});

await check('urql', async () => {
  const methods = [];
  const client = new Client({
    url: `${api}/graphql`,
    exchanges: [cacheExchange, fetchExchange],
    fetchOptions: { headers: auth },
    fetch: (url, init) => {
      methods.push(init.method);
      return fetch(url, init);
    },
  });
  const result = await client.query(QUERY, {}).toPromise();
  if (result.error) throw result.error;
  return { methods, totalCount: result.data.paymentSources.totalCount };
});

await check('apollo client', async () => {
  const client = new ApolloClient({
    link: new HttpLink({ uri: `${api}/graphql`, headers: auth }),
    cache: new InMemoryCache(),
  });
  const result = await client.query({ query: gql(QUERY) });
  return { totalCount: result.data.paymentSources.totalCount };
});

const passed = Object.values(checks).every((c) => c.ok);
const list = document.getElementById('checks');
for (const [name, c] of Object.entries(checks)) {
  const li = document.createElement('li');
  li.textContent = `${c.ok ? 'ok' : 'FAILED'} · ${name} · ${JSON.stringify(c.ok ? c.value : c.error)}`;
  li.className = c.ok ? 'ok' : 'failed';
  list.append(li);
}
document.getElementById('results').textContent = JSON.stringify(checks);
document.body.dataset.state = passed ? 'passed' : 'failed';
