// Mutations: the service layer validates and keeps every rule; a rejected write changes nothing.

import { Kind, type OperationDefinitionNode } from 'graphql';
import { SCOPES, seesPersonalData, type Scope } from '../../auth/principal';
import type { Actor } from '../../domain/context';
import { alternateKeyOf } from '../../domain/maintenance/write-service';
import { RESOURCES, WRITTEN_MODELS, type ResourceModel } from '../../domain/resources';
import { notFound } from '../../errors/catalogue';
import type { MutationResolvers, Resolvers } from '../__generated__/resolvers-types';
import type { GraphqlContext } from '../context';

/** The caller of a mutation, with the request id its change-log entries carry. */
const actor = ({ principal, requestId }: GraphqlContext): Actor => ({
  userId: principal.userId,
  requestId,
  personalData: seesPersonalData(principal),
});

/** GraphQL input objects have no prototype; the services get plain objects without absent-valued keys. */
function plain(input: object, dropNull: readonly string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    if (v === undefined || (v === null && dropNull.includes(k))) continue;
    out[k] = v instanceof Date ? v.toISOString() : v;
  }
  return out;
}

/** A GraphQL input value as a JSON body: plain objects and arrays, instants as ISO text; on create, null is "not given" (the default). */
function body(value: unknown, dropNull: boolean): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map((v) => body(v, dropNull));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined && !(dropNull && v === null)) out[k] = body(v, dropNull);
  return out;
}

interface WriteArgs {
  readonly id: string;
  readonly input: object;
  readonly ifMatch?: string | null;
}

/** The resources written by their alternate key too (`upsert<X>`), with the key's argument. */
const UPSERTED = WRITTEN_MODELS.flatMap((model) => {
  const key = alternateKeyOf(RESOURCES[model]);
  return key ? [{ model, field: key.field }] : [];
});

/**
 * create<X>, update<X> (partial input, as REST's PATCH), delete<X> and, by an alternate key,
 * upsert<X> (as REST's PUT to `/<set>(<key>='…')`) of one resource of the common write path. The names are computed from the model, so the object has an index
 * signature, which MutationResolvers (one optional property per field) accepts.
 */
function writeFields(model: ResourceModel): MutationResolvers {
  const writer = ({ services }: GraphqlContext) => {
    const w = services.writers[model];
    if (!w) throw new Error(`${model} has no writer`);
    return w;
  };
  return {
    [`create${model}`]: (_p: unknown, { input }: WriteArgs, ctx: GraphqlContext) => writer(ctx).create(body(input, true), actor(ctx)),
    [`update${model}`]: (_p: unknown, { id, input, ifMatch }: WriteArgs, ctx: GraphqlContext) =>
      writer(ctx).patch(id, body(input, false), actor(ctx), { ifMatch: ifMatch ?? undefined }),
    [`delete${model}`]: async (_p: unknown, { id, ifMatch }: WriteArgs, ctx: GraphqlContext) => {
      await writer(ctx).delete(id, actor(ctx), { ifMatch: ifMatch ?? undefined });
      return true;
    },
    ...Object.fromEntries(
      UPSERTED.filter((u) => u.model === model).map(({ field }) => [
        `upsert${model}`,
        async (_p: unknown, args: Omit<WriteArgs, 'id'>, ctx: GraphqlContext) => {
          const key: unknown = Object.getOwnPropertyDescriptor(args, field)?.value;
          const written = await writer(ctx).upsert(key, body(args.input, true), actor(ctx), { ifMatch: args.ifMatch ?? undefined });
          return written.record;
        },
      ]),
    ),
    ...Object.fromEntries(
      UPSERTED.filter((u) => u.model === model).map(() => [
        `upsert${model}s`,
        // Like update<X> per record: null clears a field, an omitted one keeps its value.
        async (_p: unknown, args: { input: readonly object[]; continueOnError?: boolean | null }, ctx: GraphqlContext) => {
          const records = args.input.map((r) => ({ body: body(r, false) }));
          const { results, counts } = await writer(ctx).upsertMany(records, actor(ctx), { continueOnError: args.continueOnError === true });
          return {
            ...counts,
            results: results.map((r) =>
              r.result === 'refused'
                ? { index: r.index, key: r.key, result: 'REFUSED', id: null, record: null, error: { ...r.error, fields: r.error.errors } }
                : { index: r.index, key: r.key, result: r.result.toUpperCase(), id: r.id, record: r.record ?? null, error: null },
            ),
          };
        },
      ]),
    ),
  };
}

/** The mutation fields of the reference data a billing office maintains (billing.maintain); the others need billing.write. */
const MAINTAINED = new Set([
  ...WRITTEN_MODELS.flatMap((m) => [`create${m}`, `update${m}`, `delete${m}`]),
  ...UPSERTED.flatMap(({ model }) => [`upsert${model}`, `upsert${model}s`]),
]);

/** The scopes the mutation fields of an operation need (fields behind fragments need billing.write and billing.maintain both). */
export function mutationScopes(operation: OperationDefinitionNode): Scope[] {
  const scopes = new Set<Scope>();
  for (const s of operation.selectionSet.selections) {
    if (s.kind !== Kind.FIELD) {
      scopes.add(SCOPES.write).add(SCOPES.maintain);
      continue;
    }
    if (s.name.value !== '__typename') scopes.add(MAINTAINED.has(s.name.value) ? SCOPES.maintain : SCOPES.write);
  }
  return scopes.size === 0 ? [SCOPES.write] : [...scopes];
}

/** `etag` of the maintained types: the record's ETag as its REST single-record read gives it (whatever the query selected of it), the records of a page read at once. */
export const etagResolvers: Resolvers = Object.fromEntries(
  WRITTEN_MODELS.map((model) => [
    model,
    {
      etag: async ({ id }: { id: string }, _a: unknown, { loaders, principal }: GraphqlContext) => {
        const etag = await loaders.etag(model, seesPersonalData(principal)).load(id);
        if (etag === null) throw notFound(RESOURCES[model].label, id);
        return etag;
      },
    },
  ]),
);

export const Mutation: MutationResolvers = {
  ...WRITTEN_MODELS.reduce<MutationResolvers>((all, m) => ({ ...all, ...writeFields(m) }), {}),
  // isActive and isDefault are optional with defaults (true, false): null means "not given".
  createPaymentSource: (_p, { input }, ctx) => ctx.services.paymentSources.create(plain(input, ['isActive', 'isDefault']), actor(ctx)),
  updatePaymentSource: (_p, { id, input }, ctx) => ctx.services.paymentSources.patch(id, plain(input), actor(ctx)),
  deletePaymentSource: async (_p, { id }, ctx) => {
    await ctx.services.paymentSources.delete(id, actor(ctx));
    return true;
  },
  // paymentSourceId and receivedAt are optional, not nullable: an explicit null means "not given".
  createPayment: (_p, { input }, ctx) => ctx.services.payments.create(plain(input, ['paymentSourceId', 'receivedAt']), actor(ctx)),
};
