import type { ModelName, Resource } from './common/resource';
import { academicTermResource } from './academic-term/resource';
import { accountResource } from './account/resource';
import { addressResource } from './address/resource';
import { articlePriceResource } from './article-price/resource';
import { articleResource } from './article/resource';
import { customerResource } from './customer/resource';
import { paymentSourceResource } from './payment-source/resource';
import { paymentResource } from './payment/resource';
import { taxCodeResource } from './tax-code/resource';

/** Every resource, by model: the one list the doors, the import and the read path derive theirs from. */
export const RESOURCES = {
  PaymentSource: paymentSourceResource,
  Payment: paymentResource,
  Account: accountResource,
  Article: articleResource,
  ArticlePrice: articlePriceResource,
  Customer: customerResource,
  Address: addressResource,
  TaxCode: taxCodeResource,
  AcademicTerm: academicTermResource,
} as const satisfies Partial<Record<ModelName, Resource>>;

export type ResourceModel = keyof typeof RESOURCES;
export const ALL_RESOURCES: readonly Resource[] = Object.values(RESOURCES);

/** The resource a relation points at. */
export const resourceOf = (model: ModelName): Resource | undefined => (Object.hasOwn(RESOURCES, model) ? RESOURCES[model as ResourceModel] : undefined);
