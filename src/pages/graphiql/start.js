// Starts GraphiQL (globals React, ReactDOM and GraphiQL come from the scripts before this
// one). The token from the bar above goes into every request as `Authorization: Bearer …`;
// it is kept in this tab's sessionStorage only. A new token remounts GraphiQL, so the
// schema is fetched again with it (introspection needs a token too).
(function () {
  'use strict';
  var KEY = 'billing.graphiql.token';
  var mount = document.getElementById('graphiql');
  // The example operation comes with the page (src/pages/example.ts).
  var DEFAULT_QUERY =
    '# Paste a token above (npm run --silent token prints one), then run with Ctrl-Enter or the run button.\n' +
    "# That token has every scope, billing.pii included: customers' names, e-mails and addresses need it.\n" +
    mount.getAttribute('data-example');

  var input = document.getElementById('token');
  var state = document.getElementById('token-state');
  var root = ReactDOM.createRoot(mount);
  var generation = 0;

  function render(token) {
    generation += 1;
    state.textContent = token ? 'token set' : 'no token: requests will be refused (401)';
    var headers = token ? { Authorization: 'Bearer ' + token } : {};
    var fetcher = GraphiQL.createFetcher({ url: '/graphql', headers: headers });
    root.render(
      React.createElement(GraphiQL, {
        key: generation,
        fetcher: fetcher,
        // Without a token the schema cannot be fetched (401): do not try until one is set.
        schema: token ? undefined : null,
        defaultQuery: DEFAULT_QUERY,
        defaultEditorToolsVisibility: 'variables',
      }),
    );
  }

  document.getElementById('token-bar').addEventListener('submit', function (event) {
    event.preventDefault();
    var token = input.value.trim().replace(/^Bearer\s+/i, '');
    sessionStorage.setItem(KEY, token);
    render(token);
  });

  var saved = sessionStorage.getItem(KEY) || '';
  input.value = saved;
  render(saved);
})();
