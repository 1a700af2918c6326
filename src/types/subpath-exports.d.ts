// Types of packages' subpath exports, which this project's "node10" module resolution does
// not read (Node itself resolves them at run time through the packages' `exports`).

declare module 'graphql-ws/use/ws' {
  export * from 'graphql-ws/dist/use/ws';
}

// @nats-io/transport-node and @nats-io/jetstream re-export their core types from here.
declare module '@nats-io/nats-core/internal' {
  export * from '@nats-io/nats-core/lib/internal_mod';
}
