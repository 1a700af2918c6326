import type { PrismaClient } from '../generated/prisma/client';

/** What the services need from the outside world. */
export interface ServiceDeps {
  readonly prisma: PrismaClient;
  /** The clock, injectable for tests. */
  readonly now?: () => Date;
}

/** The authenticated caller, as far as the rules care: who writes. */
export interface Actor {
  readonly userId: string;
}
