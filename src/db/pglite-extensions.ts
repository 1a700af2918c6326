import { btree_gist } from '@electric-sql/pglite/contrib/btree_gist';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';

/**
 * The extensions the migrations create (pg_trgm: the trigram index on customer surnames;
 * btree_gist: the exclusion constraint on tax-code periods),
 * loaded into every embedded database: the service's, the tests' and the Prisma CLI's.
 */
export const PGLITE_EXTENSIONS = { pg_trgm, btree_gist };
