// What the $batch door assumes of light-my-request 6 and Express 5 beyond their documented
// API, in one place; test/tooling/library-internals.test.ts holds it to the installed
// packages, which package.json pins exactly.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type express from 'express';

/**
 * 1. light-my-request makes its own request and response objects (a Readable and an
 *    http.ServerResponse whose prototypes' methods capture what the handler writes). Handed
 *    an Express app itself, it rewrites the prototypes Express shares between every app of
 *    the process, which breaks the real responses of this one. Express's app.handle() sets
 *    each request's and response's prototype to its own (app.request, app.response), which
 *    would drop light-my-request's methods. So the app is handed over as a plain function,
 *    and light-my-request's methods are first copied onto the two objects as own
 *    properties, which no prototype change hides.
 */
export function injectable(app: express.Express): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    for (const target of [req, res]) {
      const proto: unknown = Object.getPrototypeOf(target);
      if (typeof proto !== 'object' || proto === null) continue;
      for (const key of Object.getOwnPropertyNames(proto)) {
        if (key === 'constructor' || Object.hasOwn(target, key)) continue;
        const descriptor = Object.getOwnPropertyDescriptor(proto, key);
        if (descriptor) Object.defineProperty(target, key, descriptor);
      }
    }
    app(req, res);
  };
}
