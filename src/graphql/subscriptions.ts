// GraphQL subscriptions over WebSocket (the graphql-ws protocol, subprotocol
// `graphql-transport-ws`) on the HTTP server's own port and path, /graphql.
//
//  - The token comes in `connection_init`'s payload ({ "Authorization": "Bearer …" }, or
//    `authorization`). Missing or not valid: the socket closes with 4401 and the reason
//    "UNAUTHENTICATED: …"; valid but without billing.audit: 4403 "FORBIDDEN: …". Only
//    subscriptions are served here (queries and mutations go over HTTP), and the only one is
//    the change log's, so the scope is checked once, at connection time.
//  - Documents are the trusted-documents manifest's only when HTTP's are (./persisted).
//  - Every document passes the same limits as over HTTP (./limits.ts): tokens while parsing,
//    variables' nesting, depth, breadth and cost; then graphql-js's validation. Refusals are
//    `error` messages with catalogue codes, never a dropped connection.
//  - A message that is not the protocol's (not JSON, unknown type, too large) closes that
//    socket with graphql-ws's 4400 (or ws's 1009 above MAX_MESSAGE_BYTES); nothing else is affected.
//  - Events come from the change log itself, read by seq (GraphqlContext.live), so what a
//    subscriber gets is exactly what the log holds in its order, and a reconnect with the last
//    cursor (`after`) resumes without a gap.

import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { CloseCode, type Context, type SubscribePayload } from 'graphql-ws';
import { useServer, type Extra } from 'graphql-ws/use/ws';
import {
  getOperationAST,
  GraphQLError,
  OperationTypeNode,
  parse,
  specifiedRules,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLSchema,
} from 'graphql';
import { WebSocketServer } from 'ws';
import { requireScope, SCOPES, type Principal } from '../auth/principal';
import type { TokenVerifier } from '../auth/tokens';
import type { Services } from '../domain/services';
import { AppError, isAppError } from '../errors/catalogue';
import type { Logger } from '../http/logger';
import type { ErrorClassifier } from '../http/problem';
import type { GraphqlContext, LiveChanges } from './context';
import { createFormatError, logInternalErrors } from './errors';
import { checkLimits, checkVariables, LIMITS } from './limits';
import { Loaders } from './loaders';
import { resolveDocument, type DocumentPolicy, type Wire } from './persisted/documents';
import { variableFaults } from './variables';
import { propOf } from '../lib/unknown';
import { interceptProtocolErrors } from './ws-internals';

export interface SubscriptionDeps {
  readonly schema: GraphQLSchema;
  readonly services: Services;
  readonly verify: TokenVerifier;
  readonly live: LiveChanges;
  readonly logger: Logger;
  readonly production: boolean;
  readonly classifyError?: ErrorClassifier | undefined;
  /** The path WebSocket upgrades are accepted on. */
  readonly path: string;
  /** Which documents may run (./persisted/documents.ts): the manifest, and whether only its documents. */
  readonly documents?: DocumentPolicy;
}

export interface SubscriptionServer {
  /** The HTTP server's 'upgrade' handler. */
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Closes every socket (1001 going away) and ends their subscriptions; later calls wait for the first. */
  close(): Promise<void>;
}

/** Largest WebSocket message accepted: a document at the token limit fits many times over. */
const MAX_MESSAGE_BYTES = 64 * 1024;
/** Subscriptions at once on one socket. */
const MAX_SUBSCRIPTIONS_PER_SOCKET = 10;
/** A close reason may hold 123 bytes. */
const reason = (e: AppError): string => Buffer.from(`${e.code}: ${e.detail}`).subarray(0, 123).toString();

/** setTimeout's longest delay (about 24.8 days). */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Milliseconds until a verified bearer token's `exp` (the verifier has checked it; this only reads it). */
function expiresInMs(authorization: string): number | undefined {
  const payload = authorization.replace(/^Bearer\s+/i, '').split('.')[1];
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8'));
    const exp = propOf(claims, 'exp');
    return typeof exp === 'number' ? Math.min(Math.max(0, exp * 1000 - Date.now()), MAX_TIMER_MS) : undefined;
  } catch {
    return undefined;
  }
}

const refusal = (code: string, message: string): GraphQLError[] => [new GraphQLError(message, { extensions: { code } })];

/** The connections' principals and their token expiries. */
interface Connections {
  readonly principals: WeakMap<object, Principal>;
  readonly expiries: WeakMap<object, NodeJS.Timeout>;
}

/**
 * A connection's token (its `Authorization` connection parameter) with the audit scope, or
 * the socket closed with 4401/4403. A connection lives no longer than its token: closed (4401)
 * when the token expires.
 */
async function admit(
  deps: SubscriptionDeps,
  conns: Connections,
  ctx: Context<Record<string, unknown> | undefined, Extra>,
): Promise<boolean> {
  const params = ctx.connectionParams ?? {};
  const header = params.Authorization ?? params.authorization;
  try {
    const principal = requireScope(await deps.verify(typeof header === 'string' ? header : undefined), SCOPES.audit);
    conns.principals.set(ctx, principal);
    const ms = typeof header === 'string' ? expiresInMs(header) : undefined;
    if (ms !== undefined) {
      const timer = setTimeout(
        () => ctx.extra.socket.close(CloseCode.Unauthorized, reason(new AppError('UNAUTHENTICATED', 'The token has expired'))),
        ms,
      );
      timer.unref();
      conns.expiries.set(ctx, timer);
    }
    return true;
  } catch (e) {
    const error = isAppError(e) ? e : new AppError('UNAUTHENTICATED', 'The token is not valid');
    ctx.extra.socket.close(error.code === 'FORBIDDEN' ? CloseCode.Forbidden : CloseCode.Unauthorized, reason(error));
    return false;
  }
}

/**
 * The subscription a client asks for, through the checks an HTTP operation goes through: the
 * document it names (a documentId or, with only trusted documents, the persisted-query
 * hash), parsed with the token limit, validated, a subscription, within the limits, its
 * variables fitting; or the errors (formatted by onError, like Apollo's over HTTP).
 */
function subscriptionOf(deps: SubscriptionDeps, payload: SubscribePayload): { document: DocumentNode } | readonly GraphQLError[] {
  const wire: Wire = { ...payload };
  const named = deps.documents ? resolveDocument(wire, deps.documents) : false;
  if (named instanceof AppError) return refusal(named.code, named.detail);
  const query = named && typeof wire.query === 'string' ? wire.query : payload.query;
  let document;
  try {
    document = parse(query, { maxTokens: LIMITS.tokens });
  } catch (e) {
    return refusal('GRAPHQL_PARSE_FAILED', e instanceof Error ? e.message : 'The document does not parse');
  }
  const invalid = validate(deps.schema, document, specifiedRules);
  if (invalid.length > 0)
    return invalid.map(
      (x) =>
        new GraphQLError(x.message, { nodes: x.nodes ?? null, extensions: { code: x.extensions.code ?? 'GRAPHQL_VALIDATION_FAILED' } }),
    );
  const operation = getOperationAST(document, payload.operationName);
  if (!operation) return refusal('GRAPHQL_VALIDATION_FAILED', 'The document names no operation to run (give operationName)');
  if (operation.operation !== OperationTypeNode.SUBSCRIPTION)
    return refusal('WRONG_TRANSPORT', 'Only subscriptions are served over WebSocket; send queries and mutations over HTTP');
  try {
    checkVariables(payload.variables);
    checkLimits(deps.schema, document, operation, payload.variables ?? undefined);
  } catch (e) {
    if (e instanceof GraphQLError) return [e];
    throw e;
  }
  const faults = variableFaults(deps.schema, operation, payload.variables ?? {});
  if (faults) return [new GraphQLError(faults.detail, { originalError: faults })];
  return { document };
}

export function subscriptionServer(deps: SubscriptionDeps): SubscriptionServer {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  const conns: Connections = { principals: new WeakMap(), expiries: new WeakMap() };
  const open = new WeakMap<object, number>();
  const formatError = createFormatError({ production: deps.production, classifyError: deps.classifyError });

  const disposable = useServer<Record<string, unknown> | undefined>(
    {
      schema: deps.schema,
      onConnect: (ctx) => admit(deps, conns, ctx),
      onSubscribe(ctx, _id, payload): ExecutionArgs | readonly GraphQLError[] {
        const principal = conns.principals.get(ctx);
        if (!principal) return refusal('UNAUTHENTICATED', 'A bearer token is required');
        const running = open.get(ctx) ?? 0;
        if (running >= MAX_SUBSCRIPTIONS_PER_SOCKET)
          return refusal('QUERY_TOO_COMPLEX', `At most ${MAX_SUBSCRIPTIONS_PER_SOCKET} subscriptions may run on one connection`);
        const found = subscriptionOf(deps, payload);
        if (!('document' in found)) return found;
        open.set(ctx, running + 1);
        const contextValue: GraphqlContext = {
          principal,
          services: deps.services,
          loaders: new Loaders(deps.services),
          log: deps.logger,
          live: deps.live,
        };
        return {
          schema: deps.schema,
          document: found.document,
          operationName: payload.operationName ?? null,
          variableValues: payload.variables ?? null,
          contextValue,
        };
      },
      onNext(_ctx, _id, _payload, _args, result) {
        if (!result.errors?.length) return;
        logInternalErrors(result.errors, deps.logger, deps.classifyError);
        return { ...result, errors: result.errors.map((e) => formatError(e.toJSON(), e)) };
      },
      onError(_ctx, _id, _payload, errors) {
        return errors.map((e) => formatError(e.toJSON(), e));
      },
      onClose(ctx) {
        clearTimeout(conns.expiries.get(ctx));
      },
      onComplete(ctx) {
        open.set(ctx, Math.max(0, (open.get(ctx) ?? 1) - 1));
      },
    },
    wss,
  );

  let closing: Promise<void> | undefined;
  return {
    upgrade(req, socket, head) {
      const path = (req.url ?? '').split('?')[0];
      if (path !== deps.path) {
        socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      socket.on('error', () => socket.destroy());
      wss.handleUpgrade(req, socket, head, (ws) => {
        // A client that breaks the WebSocket protocol is noted, not printed (./ws-internals.ts).
        interceptProtocolErrors(ws, (code) => deps.logger.debug({ code }, 'WebSocket closed: the client broke the protocol'));
        wss.emit('connection', ws, req);
      });
    },
    close() {
      // Once: main.ts closes the sockets first, App.stop() again.
      // graphql-ws closes every socket (1001 going away), ends their subscriptions and closes the ws server.
      closing ??= Promise.resolve(disposable.dispose());
      return closing;
    },
  };
}
