import type { Prisma } from '../../generated/prisma/client';
import { ReadService } from '../common/read-service';
import type { ServiceDeps } from '../context';
import { accountFields } from './fields';

export type Account = Prisma.AccountGetPayload<object>;

export class AccountService extends ReadService<'Account', Account> {
  constructor(deps: ServiceDeps) {
    super(deps.prisma.account, accountFields, 'account', { source: { rows: deps.rows, table: 'Account', relations: [] }, ids: deps.prisma.account });
  }
}
