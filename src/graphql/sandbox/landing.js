// Runs before Apollo's embed script (parser-blocking, in <head>). When that script cannot be
// fetched from Apollo's CDN (offline, or a network that blocks it), the page says so and offers
// the bundled GraphiQL; Apollo's start script, which comes next, then finds a stand-in for the
// missing EmbeddedSandbox instead of throwing.
(function () {
  'use strict';
  var CDN = 'https://embeddable-sandbox.cdn.apollographql.com/';

  function showFallback() {
    document.documentElement.classList.add('sandbox-offline');
    document.getElementById('sandbox-offline').hidden = false;
    document.getElementById('open-graphiql').focus();
  }

  // A script's load error does not bubble: listen in the capture phase.
  window.addEventListener(
    'error',
    function (event) {
      var el = event.target;
      if (!el || el.tagName !== 'SCRIPT' || el.src.indexOf(CDN) !== 0) return;
      window.EmbeddedSandbox = function () {
        showFallback();
      };
    },
    true,
  );
})();
