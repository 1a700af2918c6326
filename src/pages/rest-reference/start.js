// Starts Swagger UI (global SwaggerUIBundle from swagger-ui-bundle.js) on this service's
// OpenAPI document. No validator badge (it would call validator.swagger.io), no remote URLs.
(function () {
  'use strict';
  var el = document.getElementById('swagger-ui');
  SwaggerUIBundle({
    url: el.getAttribute('data-openapi'),
    domNode: el,
    deepLinking: true,
    validatorUrl: null,
    docExpansion: 'list',
    defaultModelsExpandDepth: 0,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
})();
