// Import boundaries of the service (docs/architecture.md "Which way imports go").
// `npm run lint:deps` checks them; .ci/run fails when one is broken.

const DOORS = '^src/(rest|graphql)/|^src/app\\.ts$';
const forbid = (name, comment, from, to, extra = {}) => ({ name, comment, severity: 'error', from, to, ...extra });

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    forbid(
      'doors-never-touch-the-database',
      'REST, GraphQL, HTTP plumbing and the app shell reach data only through src/domain services.',
      { path: '^src/(rest|graphql|http)/|^src/app\\.ts$' },
      { path: '^src/db/|(^|/)node_modules/@prisma/' },
    ),
    forbid(
      'domain-never-imports-a-door',
      'The service layer is the same for both doors: no Express, GraphQL or HTTP plumbing in it.',
      { path: '^src/domain/' },
      { path: `${DOORS}|^src/http/` },
    ),
    forbid(
      'query-core-stands-alone',
      'The neutral filter tree and value rules depend on nothing but themselves and the error catalogue.',
      { path: '^src/query/' },
      { pathNot: '^src/(query|errors|lib)/' },
    ),
    forbid(
      'pages-stand-apart',
      'src/pages (the browser tools: GraphiQL, the Sandbox landing page, the REST reference) serve files; they use only configuration and src/lib.',
      { path: '^src/pages/' },
      { path: '^src/', pathNot: '^src/(pages|config|lib)/' },
    ),
    forbid(
      'lib-stands-alone',
      'src/lib holds helpers over plain values, for every folder: it imports none of them.',
      { path: '^src/lib/' },
      { path: '^src/', pathNot: '^src/lib/' },
    ),
    forbid(
      'doors-never-import-events',
      'The doors get the live change log and the relay state through what AppDeps declares; main.ts starts src/events and hands them in.',
      { path: '^src/(rest|graphql|http)/|^src/app\\.ts$' },
      { path: '^src/events/' },
    ),
    forbid(
      'events-never-import-a-door',
      'src/events (relay, live changes) sits beside the doors, over the service layer and src/db.',
      { path: '^src/events/' },
      { path: DOORS },
    ),
    forbid(
      'http-never-imports-a-door',
      'src/http is plumbing the doors use; src/app.ts mounts the doors.',
      { path: '^src/http/' },
      { path: DOORS },
    ),
    forbid(
      'no-cycles-between-folders',
      'Folders depend on each other in one direction.',
      { path: '^src/' },
      { circular: true },
      { scope: 'folder' },
    ),
    forbid('not-to-unresolvable', 'Every import resolves.', {}, { couldNotResolve: true }),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/db/__generated__/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
