// Runs before Apollo's embed script (parser-blocking, in <head>). When Sandbox cannot come up
// (offline, or a network that blocks Apollo's servers) the page says so and offers the bundled
// GraphiQL:
//  - the embed's script cannot be fetched from Apollo's CDN: Apollo's start script, which
//    comes next, then finds a stand-in for the missing EmbeddedSandbox instead of throwing;
//  - the script came (from the browser's cache, say) but the frame it opens never speaks: a
//    loaded Sandbox posts messages to this page at once; after SILENCE_MS without one the
//    notice shows, and goes again if Sandbox speaks after all.
(function () {
  'use strict';
  var CDN = 'https://embeddable-sandbox.cdn.apollographql.com/';
  var FRAME_ORIGIN = 'https://sandbox.embed.apollographql.com';
  var SILENCE_MS = 15000;
  var heard = false;

  function notice(shown) {
    document.documentElement.classList.toggle('sandbox-offline', shown);
    document.getElementById('sandbox-offline').hidden = !shown;
    if (shown) document.getElementById('open-graphiql').focus();
  }

  // A script's load error does not bubble: listen in the capture phase.
  window.addEventListener(
    'error',
    function (event) {
      var el = event.target;
      if (!el || el.tagName !== 'SCRIPT' || el.src.indexOf(CDN) !== 0) return;
      window.EmbeddedSandbox = function () {
        notice(true);
      };
    },
    true,
  );

  window.addEventListener('message', function (event) {
    if (event.origin !== FRAME_ORIGIN || heard) return;
    heard = true;
    notice(false);
  });
  setTimeout(function () {
    if (!heard) notice(true);
  }, SILENCE_MS);
})();
