// An Express request to Apollo and Apollo's answer back, through the API Apollo documents for
// integrations (ApolloServer.executeHTTPGraphQLRequest, "Building integrations"). Not
// @as-integrations/express5, which does the same in twenty lines but finds the query string
// with url.parse(): on Node 24 that walks the call stack on every call made from inside
// node_modules (to decide whether to print a deprecation warning, which it then does not),
// 4 % of the service's CPU on one customer by id. And the request's body is taken as the
// door left it: none (a GET, or a refused token whose body is never read) is an empty one.

import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLRequest } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';

/** What the context function is given. */
export interface HttpContextArgument {
  readonly req: Request;
  readonly res: Response;
}

/** The request as Apollo takes it: method, headers (repeated ones joined), query string, body. */
function graphqlRequest(req: Request): HTTPGraphQLRequest {
  const headers = new HeaderMap();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  const q = req.url.indexOf('?');
  const body: unknown = req.body;
  return { method: req.method.toUpperCase(), headers, search: q === -1 ? '' : req.url.slice(q), body: body ?? {} };
}

/** The handler of the GraphQL door's operations: Apollo's answer, whole or (incremental delivery) chunk by chunk. */
export function apolloHandler<C extends BaseContext>(
  server: ApolloServer<C>,
  context: (a: HttpContextArgument) => Promise<C>,
): RequestHandler {
  return async (req, res) => {
    const answer = await server.executeHTTPGraphQLRequest({
      httpGraphQLRequest: graphqlRequest(req),
      context: () => context({ req, res }),
    });
    for (const [name, value] of answer.headers) res.setHeader(name, value);
    res.statusCode = answer.status ?? 200;
    if (answer.body.kind === 'complete') {
      res.send(answer.body.string);
      return;
    }
    for await (const chunk of answer.body.asyncIterator) res.write(chunk);
    res.end();
  };
}
