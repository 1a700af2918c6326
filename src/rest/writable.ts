import { alternateKeyOf } from '../domain/maintenance/write-service';
import { RESOURCES, WRITTEN_MODELS, type ResourceModel } from '../domain/resources';

// Which methods each collection's paths take beyond reads: the routes' 405 answers and the
// OData capabilities ($metadata) both follow from it.

/** The methods each path of a collection takes beyond GET (and HEAD): 405 with `Allow` for the others. */
export interface PathMethods {
  readonly collection: readonly string[];
  readonly item: readonly string[];
}

/** What the common write path gives a collection: create, full replace, merge, delete. */
export const MAINTAINED: PathMethods = { collection: ['POST'], item: ['PUT', 'PATCH', 'DELETE'] };
export const READ_ONLY: PathMethods = { collection: [], item: [] };
/** The collections written by routes of their own (billing.write), and the methods those add. */
const OWN_WRITES: Partial<Record<ResourceModel, PathMethods>> = { PaymentSource: MAINTAINED, Payment: { collection: ['POST'], item: [] } };

/** The write methods a collection's paths take: the 405 answers and the OData capabilities follow from it. */
export const methodsOf = (model: ResourceModel): PathMethods =>
  OWN_WRITES[model] ?? (WRITTEN_MODELS.includes(model) ? (alternateKeyFieldOf(model) ? KEYED : MAINTAINED) : READ_ONLY);

/** A maintained collection whose records have an alternate key also takes PATCH: the bulk upsert by that key. */
const KEYED: PathMethods = { ...MAINTAINED, collection: [...MAINTAINED.collection, 'PATCH'] };

/** The field a collection's records are addressed by besides the id (`/customers(debtorNumber='…')`): the natural key of a maintained resource. */
export const alternateKeyFieldOf = (model: ResourceModel): string | undefined =>
  WRITTEN_MODELS.includes(model) ? alternateKeyOf(RESOURCES[model])?.field : undefined;
