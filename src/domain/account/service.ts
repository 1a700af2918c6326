import type { Prisma } from '../../generated/prisma/client';
import { tablePages } from '../common/list';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { accountFields } from './fields';

export type Account = Prisma.AccountGetPayload<object>;

export class AccountService extends ReadService<'Account', Account> {
  constructor(deps: ServiceDeps) {
    super(deps.prisma.account, accountFields, 'account', tablePages(deps.rows, 'Account', deps.prisma.account));
  }
}
