// The values the resolvers pass around (codegen "mappers", codegen.ts): service records,
// not GraphQL shapes. A connection is the service layer's Page itself; edges and pageInfo
// are computed from it only when selected.

import type { ChangeEntry, FeedPage } from '../domain/change-log/service';
import type { Page } from '../domain/common/list';
import type { RecordOf, Selected } from '../domain/common/read-service';
import type { RESOURCES, ResourceModel } from '../domain/resources';
import type { Quote, QuoteLine, QuoteTotals } from '../domain/pricing/types';

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
