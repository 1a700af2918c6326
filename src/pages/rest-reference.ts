import type { Router } from 'express';
import { npmFile, projectFile, toolAssets, toolPageHandler, type ToolPage } from './serve';

// The REST reference outside production: Swagger UI (swagger-ui-dist) over the service's own
// OpenAPI document, served by the service itself, so it works offline. "Authorize" takes the
// bearer token; "Try it out" calls this service.

export const REFERENCE_PATH = '/docs';

export function restReferencePage(restBase: string): ToolPage {
  return {
    assetBase: `${restBase}${REFERENCE_PATH}`,
    assets: {
      'swagger-ui.css': npmFile('swagger-ui-dist', 'swagger-ui.css'),
      'swagger-ui-bundle.js': npmFile('swagger-ui-dist', 'swagger-ui-bundle.js'),
      'start.js': projectFile('src', 'pages', 'rest-reference', 'start.js'),
    },
    title: 'REST reference · Billing reference data',
    load: ['swagger-ui.css', 'swagger-ui-bundle.js', 'start.js'],
    // The start script reads the document's address from here (no inline script under the CSP).
    body: `<div id="swagger-ui" data-openapi="${restBase}/openapi.json">Loading the REST reference…</div>`,
    inlineStyles: false,
  };
}

/** The page at {restBase}/docs and its assets beneath it; mounted at the root. */
export function restReference(restBase: string): Router {
  const page = restReferencePage(restBase);
  const send = toolPageHandler(page);
  const router = toolAssets(page);
  router.get(page.assetBase, (_req, res) => send(res));
  return router;
}
