import type { PrismaClient } from '../db/__generated__/prisma/client';
import type { RowReader } from '../db/row-reader';

/** What the services need from the outside world. */
export interface ServiceDeps {
  readonly prisma: PrismaClient;
  /** The list pages' statements (Database.rows). */
  readonly rows: RowReader;
  /** The clock, injectable for tests. */
  readonly now?: () => Date;
}

/** The authenticated caller, as far as the rules care: who writes, and whether it may see and write personal data. */
export interface Actor {
  readonly userId: string;
  /** The personal-data scope: without it, a write may not set personal fields, and its answer leaves them out. */
  readonly personalData: boolean;
  /** The request that writes (recorded in the change log). */
  readonly requestId?: string | undefined;
}
