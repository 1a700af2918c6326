// Import boundaries of the service (docs/architecture.md "Which way imports go").
// `npm run lint:deps` checks them; .ci/run fails when one is broken.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'doors-never-touch-the-database',
      comment: 'REST, GraphQL, HTTP plumbing and the app shell reach data only through src/domain services.',
      severity: 'error',
      from: { path: '^src/(rest|graphql|http)/|^src/app\\.ts$' },
      to: { path: '^src/(generated|db)/|(^|/)node_modules/@prisma/' },
    },
    {
      name: 'domain-never-imports-a-door',
      comment: 'The service layer is the same for both doors: no Express, GraphQL or HTTP plumbing in it.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/(rest|graphql|http)/|^src/app\\.ts$' },
    },
    {
      name: 'query-core-stands-alone',
      comment: 'The neutral filter tree and value rules depend on nothing but themselves and the error catalogue.',
      severity: 'error',
      from: { path: '^src/query/' },
      to: { pathNot: '^src/(query|errors)/' },
    },
    {
      name: 'http-never-imports-a-door',
      comment: 'src/http is plumbing the doors use; src/app.ts mounts the doors.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: '^src/(rest|graphql)/|^src/app\\.ts$' },
    },
    {
      name: 'no-cycles-between-folders',
      comment: 'Top-level folders of src/ depend on each other in one direction.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/[^/]+' },
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/generated/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
