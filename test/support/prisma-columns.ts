import { Prisma } from '../../src/db/__generated__/prisma/client';

/**
 * The scalar columns of a model as Prisma generates them (`Prisma.<Model>ScalarFieldEnum`):
 * the tests' oracle for what the database's tables hold, looked up by the model's name so
 * that a new model needs no entry here.
 */
export function scalarColumns(model: Prisma.ModelName): string[] {
  const generated: unknown = Reflect.get(Prisma, `${model}ScalarFieldEnum`);
  if (typeof generated !== 'object' || generated === null) throw new Error(`Prisma has no ${model}ScalarFieldEnum`);
  return Object.values(generated).filter((v): v is string => typeof v === 'string');
}
