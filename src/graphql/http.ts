// An Express request to Apollo and Apollo's answer back, through the API Apollo documents for
// integrations (ApolloServer.executeHTTPGraphQLRequest, "Building integrations"). Not
// @as-integrations/express5, which does the same in twenty lines but finds the query string
// with url.parse(): on Node 24 that walks the call stack on every call made from inside
// node_modules (to decide whether to print a deprecation warning, which it then does not),
// 4 % of the service's CPU on one customer by id. And the request's body is taken as the
// door left it: none (a GET, or a refused token whose body is never read) is an empty one.
//
// Every answer of /graphql has the GraphQL shape `{ "errors": [{ "message", "extensions":
// { "code" } }] }`, whichever layer refuses the request (the token, the rate limit, the body
// reader, the trusted documents): sendGraphqlError writes the refusals made before Apollo.
//
// A batch (a JSON array of operations, Apollo Client's BatchHttpLink) is answered here,
// operation by operation, each through Apollo on its own with one shared context (one token
// check, one cost budget): HTTP 200 with every operation's own result, its errors inside
// it, so that a client keeps the results that ran when another operation was refused (Apollo
// answers a batch with the status of its worst operation, and a client then drops them all).

import { HeaderMap, type ApolloServer, type BaseContext, type HTTPGraphQLRequest, type HTTPGraphQLResponse } from '@apollo/server';
import type { Request, RequestHandler, Response } from 'express';
import type { AppError } from '../errors/catalogue';
import { setAuthChallenge } from '../http/problem';
import { appErrorExtensions } from './errors';

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

/** The media type of a GraphQL answer: the GraphQL-over-HTTP one when the client asks for it, as Apollo chooses. */
function answerType(req: Request): string {
  const type = req.accepts(['application/json', 'application/graphql-response+json']);
  return `${type === false ? 'application/json' : type}; charset=utf-8`;
}

/** A refusal as one GraphQL error (text), from the catalogue. */
const errorText = (e: AppError): string => JSON.stringify({ errors: [{ message: e.detail, extensions: appErrorExtensions(e) }] });

/** A refusal made before Apollo (token, rate limit, body, documents) as a GraphQL answer with the catalogue's status. */
export function sendGraphqlError(req: Request, res: Response, e: AppError): void {
  if (e.retryAfter !== undefined) res.setHeader('Retry-After', String(e.retryAfter));
  setAuthChallenge(res, e, req.get('authorization'));
  res.status(e.status).setHeader('Content-Type', answerType(req));
  res.send(errorText(e));
}

/** Apollo's answer to the Express response, whole or (incremental delivery) chunk by chunk. */
async function send(res: Response, answer: HTTPGraphQLResponse): Promise<void> {
  for (const [name, value] of answer.headers) res.setHeader(name, value);
  res.statusCode = answer.status ?? 200;
  if (answer.body.kind === 'complete') {
    res.send(answer.body.string);
    return;
  }
  for await (const chunk of answer.body.asyncIterator) res.write(chunk);
  res.end();
}

/**
 * Apollo's answer to one operation; a batch answered operation by operation (see the top of
 * this file). `context` is called once per operation: it must give the operations of one
 * request one shared state (server.ts makes it once per request).
 */
export function apolloHandler<C extends BaseContext>(
  server: ApolloServer<C>,
  context: (a: HttpContextArgument) => Promise<C>,
  /** A batch's operations refused before Apollo (by index), each answered with its error. */
  refusalsOf: (req: Request) => ReadonlyMap<number, AppError> | undefined = () => undefined,
): RequestHandler {
  const run = (req: Request, res: Response, httpGraphQLRequest: HTTPGraphQLRequest) =>
    server.executeHTTPGraphQLRequest({ httpGraphQLRequest, context: () => context({ req, res }) });
  return async (req, res) => {
    const request = graphqlRequest(req);
    const body: unknown = req.body;
    // An empty batch is Apollo's to refuse (BAD_REQUEST).
    if (req.method !== 'POST' || !Array.isArray(body) || body.length === 0) return send(res, await run(req, res, request));
    const texts = await Promise.all(
      body.map(async (op: unknown, i) => {
        const refused = refusalsOf(req)?.get(i);
        if (refused) return errorText(refused);
        const answer = await run(req, res, { ...request, body: op });
        for (const [name, value] of answer.headers) if (name !== 'content-type') res.setHeader(name, value);
        // A single operation is answered in chunks only with incremental delivery (@defer), which graphql 16 has not.
        if (answer.body.kind !== 'complete') throw new Error('incremental delivery inside a batch');
        return answer.body.string;
      }),
    );
    res.status(200).setHeader('Content-Type', answerType(req));
    res.send(`[${texts.join(',')}]`);
  };
}
