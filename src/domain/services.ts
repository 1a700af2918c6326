import { AcademicTermService } from './academic-term/service';
import { AccountService } from './account/service';
import { AddressService } from './address/service';
import { ChangeLogService } from './change-log/service';
import { ArticlePriceService } from './article-price/service';
import { ArticleService } from './article/service';
import type { ServiceDeps } from './context';
import type { ResourcePlural } from './resources';
import { CustomerService } from './customer/service';
import { PaymentSourceService } from './payment-source/service';
import { PaymentService } from './payment/service';
import { PricingService } from './pricing/service';
import { TaxCodeService } from './tax-code/service';

/**
 * The one service layer both doors call: each resource's service under its declaration's
 * `plural` (the doors find it there), and the pricing service.
 */
export function createServices(deps: ServiceDeps) {
  return {
    paymentSources: new PaymentSourceService(deps),
    payments: new PaymentService(deps),
    accounts: new AccountService(deps),
    articles: new ArticleService(deps),
    articlePrices: new ArticlePriceService(deps),
    customers: new CustomerService(deps),
    addresses: new AddressService(deps),
    taxCodes: new TaxCodeService(deps),
    academicTerms: new AcademicTermService(deps),
    pricing: new PricingService(deps),
    changeLog: new ChangeLogService(deps),
  } satisfies Record<ResourcePlural | 'pricing' | 'changeLog', object>;
}

export type Services = ReturnType<typeof createServices>;
