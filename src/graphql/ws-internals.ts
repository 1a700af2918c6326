// What the GraphQL door assumes of ws 8 beyond its documented API, in one place.
// test/tooling/library-internals.test.ts holds each assumption to the installed package, so an
// upgrade that breaks one fails that test; the version is pinned exactly in package.json.

import type { WebSocket } from 'ws';
import { stringProp } from '../lib/unknown';

/**
 * 1. ws closes a socket whose client breaks the WebSocket protocol itself (1009 message too
 *    large, 1007 bad UTF-8, 1002) and then emits 'error' on it, with a `code` such as
 *    WS_ERR_UNSUPPORTED_MESSAGE_LENGTH. graphql-ws's listener would print that to the
 *    console; the only hook before its listener is the socket's own emit, replaced here for
 *    'error' alone. The client's fault, not ours: `onError` notes it, nothing else hears it.
 */
export function interceptProtocolErrors(ws: WebSocket, onError: (code: string | undefined) => void): void {
  const emit = ws.emit.bind(ws);
  ws.emit = (event: string | symbol, ...args: unknown[]) => {
    if (event !== 'error') return emit(event, ...args);
    onError(stringProp(args[0], 'code'));
    return true;
  };
}
