// All mutation fields of one operation are one unit of work (src/db/unit-of-work.ts through
// the services): every one is kept, or none. graphql-js runs them one after the other and
// turns a failing field into an error of the result rather than a rejection, so the result
// is looked at inside the unit: any error rolls the unit back. Fields that had succeeded
// before are then not kept, and the answer says so: `data` is null (nothing the operation
// returned exists) and each such field has an error of its own, ROLLED_BACK, at its path.

import { MapperKind, mapSchema } from '@graphql-tools/utils';
import { defaultFieldResolver, GraphQLError, Kind, type ExecutionResult, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import { ERRORS } from '../errors/catalogue';
import type { Services } from '../domain/services';
import type { ExecutorResult } from './apollo-internals';

/**
 * Whether a mutation operation may run more than one mutation field (a fragment at the root
 * may hold several). One field alone is atomic already (its write is one transaction), and
 * runs as it always did: a unit would hold a connection through the answer's reads as well.
 */
export function severalFields(operation: OperationDefinitionNode): boolean {
  const selections = operation.selectionSet.selections.filter((s) => !(s.kind === Kind.FIELD && s.name.value === '__typename'));
  return selections.length > 1 || selections.some((s) => s.kind !== Kind.FIELD);
}

/** The root value of a mutation's execution: the response keys of the fields whose resolver succeeded, in order. */
export class MutationRoot {
  readonly succeeded: string[] = [];
}

/**
 * The schema with every Mutation field's resolver telling its operation's root when it
 * succeeded (graphql-tools' mapSchema: the wrapper has the resolver's own type).
 */
export function notingMutations(schema: GraphQLSchema): GraphQLSchema {
  return mapSchema(schema, {
    [MapperKind.MUTATION_ROOT_FIELD]: (field) => {
      const resolve = field.resolve ?? defaultFieldResolver;
      return {
        ...field,
        async resolve(root, args, ctx, info) {
          const out: unknown = await resolve(root, args, ctx, info);
          if (root instanceof MutationRoot) root.succeeded.push(String(info.path.key));
          return out;
        },
      };
    },
  });
}

class RolledBack extends Error {
  constructor(readonly result: ExecutionResult) {
    super('rolled back');
  }
}

/** Executes a mutation operation (`run` with a fresh root) in one unit of work. */
export async function atomically(services: Services, run: (root: MutationRoot) => Promise<ExecutorResult>): Promise<ExecutorResult> {
  const root = new MutationRoot();
  try {
    return await services.unitOfWork(async () => {
      const result = await run(root);
      if (result.errors?.length) throw new RolledBack(result);
      return result;
    });
  } catch (e) {
    if (!(e instanceof RolledBack)) throw e;
    const errors = e.result.errors ?? [];
    const failed = new Set(errors.map((x) => x.path?.[0]));
    const notKept = root.succeeded
      .filter((key) => !failed.has(key))
      .map(
        (key) =>
          new GraphQLError(`${ERRORS.ROLLED_BACK.title}; nothing of this operation was written`, {
            path: [key],
            extensions: { code: 'ROLLED_BACK' },
          }),
      );
    return { ...e.result, data: null, errors: [...errors, ...notKept] } as ExecutorResult;
  }
}
