// The values the resolvers pass around (graphql-codegen's mappers: codegen.yml hands every
// object type to ModelOf below): service records, not GraphQL shapes. A connection is the service layer's Page itself; edges and pageInfo
// are computed from it only when selected.

import type { ChangeEntry, FeedPage } from '../domain/change-log/service';
import type { Page } from '../domain/common/list';
import type { RecordOf, Selected } from '../domain/common/read-service';
import type { RESOURCES, ResourceModel } from '../domain/resources';
import type { Quote, QuoteLine, QuoteTotals } from '../domain/pricing/types';
import type { ChangeOperation } from '../domain/change-log/append';
import type { TAX_TYPES } from '../domain/tax-code/fields';
import type { SortKey } from '../query/filter-tree';

type Declared<M extends ResourceModel> = (typeof RESOURCES)[M];

/** A relation's value on a record that was read with it: the other record (or null), or the other records. */
type RelationValue<R> = R extends { readonly kind: 'one'; readonly target: infer T extends ResourceModel; readonly nullable: infer N }
  ? GraphModel<T> | (N extends true ? null : never)
  : R extends { readonly kind: 'many'; readonly target: infer T extends ResourceModel }
    ? GraphModel<T>[]
    : never;

/**
 * A record of a resource as the resolvers pass it, computed from its declaration: the fields
 * it was read with (lists and single records read only what the query selects, and the keys
 * its relation fields need: resolvers/selection.ts), and each relation that was read inside
 * it (resolvers/relations.ts RELATION_READS); a relation's resolver then needs no loader. The
 * pricing service's effective price is an ArticlePrice record too.
 */
export type GraphModel<M extends ResourceModel> = Selected<RecordOf<Declared<M>['fields']>> & {
  -readonly [K in keyof Declared<M>['relations']]?: RelationValue<Declared<M>['relations'][K]>;
};

export type ConnectionModel<T> = Page<T>;
export interface EdgeModel<T> {
  readonly cursor: string;
  readonly node: T;
}
export type ConnectionOf<M extends ResourceModel> = ConnectionModel<GraphModel<M>>;
export type EdgeOf<M extends ResourceModel> = EdgeModel<GraphModel<M>>;

export type QuoteModel = Quote;
export type QuoteLineModel = QuoteLine;
export type QuoteTotalsModel = QuoteTotals;

export type ChangeModel = ChangeEntry;
/** A page of the change log in feed order; its cursor is where to continue, also when it is empty. */
export type ChangeConnectionModel = FeedPage;
export type ChangeEdgeModel = EdgeModel<ChangeEntry>;

/** What the resolvers pass around for a GraphQL type that is not a resource's (by __typename). */
interface ServiceModels {
  Quote: QuoteModel;
  QuoteLine: QuoteLineModel;
  QuoteTotals: QuoteTotalsModel;
  Change: ChangeModel;
  ChangeConnection: ChangeConnectionModel;
  ChangeEdge: ChangeEdgeModel;
}

/** The model of a GraphQL type by its name: a resource's record, connection or edge, a service type, or none. */
type ModelByName<N extends string> = N extends ResourceModel
  ? GraphModel<N>
  : N extends `${infer M extends ResourceModel}Connection`
    ? ConnectionOf<M>
    : N extends `${infer M extends ResourceModel}Edge`
      ? EdgeOf<M>
      : N extends keyof ServiceModels
        ? ServiceModels[N]
        : never;

/**
 * codegen.yml's `defaultMapper`: the generated type T of every GraphQL object type comes here
 * and leaves as its model, looked up by T's __typename; a type with no model (PageInfo, the
 * root types) stays T. A new resource needs nothing here: its names come from its declaration.
 */
export type ModelOf<T> = T extends { __typename?: infer N extends string } ? ([ModelByName<N>] extends [never] ? T : ModelByName<N>) : T;

/** The enums whose GraphQL names differ from their values (codegen.yml's enumValues), as the service layer has them. */
export type TaxTypeModel = (typeof TAX_TYPES)[number];
export type SortDirectionModel = SortKey['direction'];
export type ChangeOperationModel = ChangeOperation;
