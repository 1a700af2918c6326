// ESLint: typescript-eslint's type-checked recommended rules on the TypeScript that
// tsconfig.json compiles (src, test, prisma.config.ts) and on scripts/*.ts. `npm run lint`.
import eslint from '@eslint/js';
import { defineConfig } from 'eslint/config';
import tseslint from 'typescript-eslint';

export default defineConfig(
  {
    // Generated code (Prisma client, GraphQL codegen) and build output are not ours to lint.
    ignores: ['dist/**', 'coverage/**', '**/__generated__/**'],
  },
  {
    files: ['**/*.ts'],
    extends: [eslint.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // scripts/*.ts run through tsx and are outside tsconfig.json's include; they get its options.
        projectService: { allowDefaultProject: ['scripts/*.ts'], defaultProject: 'tsconfig.json' },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // The code's convention: a leading underscore marks a binding unused on purpose
      // (Express's four-argument error handler, a rest destructuring that drops a key).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Apollo's plugin, gateway and context hooks are typed to return Promises, and most of
    // ours have nothing to await. `async` is how they meet that type, and it makes a thrown
    // GraphQLError (the scope and limit checks, the 401 from the context function) a
    // rejection, which is what Apollo's pipeline expects. Rewriting each as
    // Promise.resolve()/Promise.reject() would change how a throw travels, for no gain.
    files: ['src/graphql/server.ts', 'src/graphql/jit.ts', 'test/graphql/apollo-internals.test.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // Tests read HTTP answers through supertest, whose `res.body` is `any`, and GraphQL data
    // through test/support/graphql.ts (also `any`, on purpose), and walk into them
    // (res.body.value[0].id) in hundreds of places; the expectations are what check the shape.
    // The no-unsafe-* rules would flag each step of every such walk, so they are off in test/
    // only. Every other rule applies there as in src/.
    files: ['test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
);
