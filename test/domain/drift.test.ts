// Each resource's field list is declared once, in src/domain/<resource>/fields.ts. The
// other places that must agree with it are checked here: the Prisma model (prisma/schema.prisma
// and the client generated from it), the enum types and CHECK constraints of the migrations,
// and the zod schemas of records and bodies (keys, nullability, types, lengths).
// schema.graphql is checked against the same catalogues in test/graphql/schema.test.ts.

import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { PROJECT_ROOT } from '../../src/config/paths';
import { ACCOUNT_TYPES } from '../../src/domain/account/fields';
import { SOURCE_TYPES } from '../../src/domain/payment-source/fields';
import { paymentSourceInput, paymentSourcePatch } from '../../src/domain/payment-source/schema';
import { paymentInput } from '../../src/domain/payment/schema';
import { TAX_TYPES } from '../../src/domain/tax-code/fields';
import { $Enums, Prisma } from '../../src/db/__generated__/prisma/client';
import type { FieldCatalog, FieldSpec } from '../../src/query/fields';
import type { ModelName } from '../../src/domain/common/declaration';
import { ALL_RESOURCES, RESOURCES as DECLARED, resourceOf, type ResourceModel } from '../../src/domain/resources';
import { scalarColumns } from '../support/prisma-columns';

type ObjectSchema = z.ZodObject<z.ZodRawShape>;

interface Resource {
  readonly model: Prisma.ModelName;
  readonly fields: FieldCatalog;
  /** The import record: every field of the catalogue (relations inside it listed apart). */
  readonly record?: ObjectSchema;
  readonly relationsInRecord?: readonly string[];
  /** Bodies of the API: a subset of the catalogue's fields. */
  readonly inputs?: readonly ObjectSchema[];
}

/** The API's bodies, a subset of the catalogue's fields, of the resources that take writes. */
const INPUTS: Partial<Record<Prisma.ModelName, readonly ObjectSchema[]>> = {
  PaymentSource: [paymentSourceInput, paymentSourcePatch],
  Payment: [paymentInput],
};
/** Relations an import record nests (a customer's addresses). */
const NESTED: Partial<Record<Prisma.ModelName, readonly string[]>> = { Customer: ['addresses'] };

const RESOURCES: readonly Resource[] = ALL_RESOURCES.map((r) => ({
  model: r.model,
  fields: r.fields,
  record: r.record,
  relationsInRecord: NESTED[r.model],
  inputs: INPUTS[r.model],
}));

/** The enum fields' value lists, by the database type that stores them. */
const ENUMS: Readonly<Record<string, readonly string[]>> = { SourceType: SOURCE_TYPES, AccountType: ACCOUNT_TYPES };
const GENERATED_ENUMS: Readonly<Record<string, object>> = { SourceType: $Enums.SourceType, AccountType: $Enums.AccountType };

// ---------------------------------------------------------------------------------------
// prisma/schema.prisma, read as text: one field per line, `name Type[?] @attributes`.

interface PrismaField {
  readonly type: string;
  readonly optional: boolean;
  readonly list: boolean;
  readonly attributes: string;
}

const prismaText = fs.readFileSync(path.join(PROJECT_ROOT, 'prisma/schema.prisma'), 'utf8');
const migrationSql = fs
  .readdirSync(path.join(PROJECT_ROOT, 'prisma/migrations'), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => fs.readFileSync(path.join(PROJECT_ROOT, 'prisma/migrations', d.name, 'migration.sql'), 'utf8'))
  .join('\n');

function prismaModel(name: string): Map<string, PrismaField> {
  const body = new RegExp(`^model ${name} \\{\\n([\\s\\S]*?)^\\}`, 'm').exec(prismaText)?.[1];
  if (body === undefined) throw new Error(`no model ${name} in schema.prisma`);
  const out = new Map<string, PrismaField>();
  for (const line of body.split('\n')) {
    const m = /^\s*(\w+)\s+(\w+)(\[\])?(\?)?\s*(.*)$/.exec(line);
    if (!m || line.trim().startsWith('//')) continue;
    out.set(m[1]!, { type: m[2]!, list: m[3] !== undefined, optional: m[4] !== undefined, attributes: m[5] ?? '' });
  }
  return out;
}

const MODEL_NAMES = new Set<string>(Object.values(Prisma.ModelName));
const scalarFieldsOf = (model: Map<string, PrismaField>): Map<string, PrismaField> =>
  new Map([...model].filter(([, f]) => !MODEL_NAMES.has(f.type)));

/** The Prisma type a catalogue type is stored as. */
function expectedPrismaType(name: string, spec: FieldSpec, stored: PrismaField): string {
  switch (spec.type) {
    case 'uuid':
      return 'String @db.Uuid';
    case 'string':
      return 'String';
    case 'boolean':
      return 'Boolean';
    case 'decimal':
      return 'Decimal';
    case 'datetime':
      return 'DateTime';
    case 'enum':
      // A database enum, or text kept to the values by a CHECK constraint (values with spaces).
      return stored.type === 'String' ? 'String' : (Object.keys(ENUMS).find((e) => ENUMS[e] === spec.values) ?? `enum of ${name}`);
  }
}

const actualPrismaType = (f: PrismaField): string =>
  f.type === 'String' && f.attributes.includes('@db.Uuid') ? 'String @db.Uuid' : f.type;

const varcharLength = (f: PrismaField): number | undefined => {
  const m = /@db\.VarChar\((\d+)\)/.exec(f.attributes);
  return m ? Number(m[1]) : undefined;
};

// ---------------------------------------------------------------------------------------
// zod: one valid value per catalogue type.

const UUID = '3fa85f64-5717-4562-b3fc-2c963f66afa6';
function sample(spec: FieldSpec): unknown {
  switch (spec.type) {
    case 'uuid':
      return UUID;
    case 'string':
      return 'x';
    case 'boolean':
      return true;
    case 'decimal':
      return 1;
    case 'datetime':
      return '2026-01-01T00:00:00Z';
    case 'enum':
      return spec.values[0];
  }
}

const accepts = (schema: z.core.$ZodType, value: unknown): boolean => z.safeParse(schema, value).success;

describe.each(RESOURCES.map((r) => [r.model, r] as const))('%s', (model, resource) => {
  const stored = scalarFieldsOf(prismaModel(model));

  test('the Prisma model has exactly the catalogue fields, with their types and nullability', () => {
    expect([...stored.keys()].sort()).toEqual(Object.keys(resource.fields).sort());
    for (const [name, spec] of Object.entries(resource.fields)) {
      const f = stored.get(name)!;
      expect(`${name}: ${actualPrismaType(f)}${f.optional ? '?' : ''}`).toBe(
        `${name}: ${expectedPrismaType(name, spec, f)}${spec.nullable ? '?' : ''}`,
      );
    }
  });

  test("the generated client's scalar field enum lists the catalogue fields", () => {
    expect(scalarColumns(model).sort()).toEqual(Object.keys(resource.fields).sort());
  });

  if (resource.record) {
    const record = resource.record;
    test('the import record has exactly the catalogue fields (and the relations it nests)', () => {
      expect(Object.keys(record.shape).sort()).toEqual([...Object.keys(resource.fields), ...(resource.relationsInRecord ?? [])].sort());
    });
  }

  const schemas = [...(resource.record ? [resource.record] : []), ...(resource.inputs ?? [])];
  test.each(schemas.map((s, i) => [i, s] as const))(
    'schema %i: each field takes its type, null only when nullable, and the stored length',
    (_i, schema) => {
      for (const [name, fieldSchema] of Object.entries(schema.shape)) {
        const spec = Object.hasOwn(resource.fields, name) ? resource.fields[name] : undefined;
        if (resource.relationsInRecord?.includes(name)) continue;
        expect(`${name} in catalogue: ${spec !== undefined}`).toBe(`${name} in catalogue: true`);
        if (!spec) continue;
        const value = name === 'email' ? 'someone@example.org' : sample(spec);
        expect(`${name} accepts ${String(value)}: ${accepts(fieldSchema, value)}`).toBe(`${name} accepts ${String(value)}: true`);
        expect(`${name} accepts null: ${accepts(fieldSchema, null)}`).toBe(`${name} accepts null: ${spec.nullable}`);
        const max = varcharLength(stored.get(name)!);
        if (spec.type === 'string' && max !== undefined && name !== 'email') {
          expect(`${name} takes ${max} characters: ${accepts(fieldSchema, 'x'.repeat(max))}`).toBe(`${name} takes ${max} characters: true`);
          expect(`${name} takes ${max + 1} characters: ${accepts(fieldSchema, 'x'.repeat(max + 1))}`).toBe(
            `${name} takes ${max + 1} characters: false`,
          );
        }
      }
    },
  );
});

describe('enums', () => {
  test.each(Object.entries(ENUMS))(
    '%s: the generated client, the Prisma schema and the migration hold the catalogue values',
    (name, values) => {
      const sorted = [...values].sort();
      expect(Object.values(GENERATED_ENUMS[name] ?? {}).sort()).toEqual(sorted);
      const declared = new RegExp(`^enum ${name} \\{\\n([\\s\\S]*?)^\\}`, 'm').exec(prismaText)?.[1] ?? '';
      // Declared alphabetically: PostgreSQL sorts an enum by declaration order, the API by string value.
      expect(
        declared
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l !== '' && !l.startsWith('//')),
      ).toEqual(sorted);
      const created = new RegExp(`CREATE TYPE "${name}" AS ENUM \\(([^)]*)\\)`).exec(migrationSql)?.[1] ?? '';
      expect(created.split(',').map((v) => v.trim().replace(/^'|'$/g, ''))).toEqual(sorted);
    },
  );

  test('taxType: text kept to the catalogue values by a CHECK constraint', () => {
    const check = /CHECK \("taxType" IN \(([^)]*)\)\)/.exec(migrationSql)?.[1] ?? '';
    expect(
      check
        .split(',')
        .map((v) => v.trim().replace(/^'|'$/g, ''))
        .sort(),
    ).toEqual([...TAX_TYPES].sort());
  });
});

test('the surname table (the lexicon substring filters look in first) stores what a customer surname can be', () => {
  const surname = prismaModel('CustomerSurname').get('name')!;
  const lastName = prismaModel('Customer').get('lastName')!;
  expect([surname.type, varcharLength(surname)]).toEqual([lastName.type, varcharLength(lastName)]);
  expect(varcharLength(surname)).toBeGreaterThan(0);
});

// ---------------------------------------------------------------------------------------
// The resource declarations (src/domain/<resource>/resource.ts): each is a model whose
// scalar fields are its catalogue, and each relation is a foreign key of schema.prisma in
// the direction declared, ordered by fields of the records it orders.

describe.each(ALL_RESOURCES.map((r) => [r.model, r] as const))('resource declaration %s', (_name, resource) => {
  it('is the Prisma model with exactly the catalogue as its scalar fields', () => {
    expect([...scalarFieldsOf(prismaModel(resource.model)).keys()].sort()).toEqual(Object.keys(resource.fields).sort());
  });

  it('has relations that follow foreign keys of the schema', () => {
    for (const r of Object.values(resource.relations)) {
      const target = resourceOf(r.target);
      if (!target) throw new Error(`${r.target} is not a declared resource`);
      // The model holding the key, and the model it points at.
      const [holder, pointedAt] = r.kind === 'one' ? [resource, target] : [target, resource];
      const keyField = [...prismaModel(holder.model).values()].find(
        (f) => f.type === pointedAt.model && new RegExp(`fields:\\s*\\[${r.foreignKey}\\]`).test(f.attributes),
      );
      expect(keyField).toBeDefined();
      expect(holder.fields[r.foreignKey]).toEqual({ type: 'uuid', nullable: r.kind === 'one' && r.nullable });
      if (r.kind === 'many') for (const k of r.order) expect(Object.keys(target.fields)).toContain(k.field);
    }
  });
});

/**
 * The names each resource had when they were written out by hand, which the derived ones must
 * keep (events, the change log and URLs carry them). Typed by the declarations: a type-level
 * inflection that differs does not compile; a runtime one that differs fails below.
 */
const NAMES: {
  readonly [M in ResourceModel]?: readonly [
    (typeof DECLARED)[M]['name'],
    (typeof DECLARED)[M]['label'],
    (typeof DECLARED)[M]['plural'],
    string?,
    string?,
  ];
} = {
  AcademicTerm: ['academic-term', 'academic term', 'academicTerms', 'AcademicTerms', 'academic-terms'],
  Account: ['account', 'account', 'accounts', 'Accounts', 'accounts'],
  Address: ['address', 'address', 'addresses'],
  ArticlePrice: ['article-price', 'article price', 'articlePrices'],
  Article: ['article', 'article', 'articles', 'Articles', 'articles'],
  Customer: ['customer', 'customer', 'customers', 'Customers', 'customers'],
  PaymentSource: ['payment-source', 'payment source', 'paymentSources', 'PaymentSources', 'payment-sources'],
  Payment: ['payment', 'payment', 'payments', 'Payments', 'payments'],
  TaxCode: ['tax-code', 'tax code', 'taxCodes', 'TaxCodes', 'tax-codes'],
};

it.each(Object.entries(NAMES))('%s: the names derived from the model are the ones it always had', (model, names) => {
  const r = resourceOf(model as ModelName)!;
  expect([r.name, r.label, r.plural, ...(r.entitySet ? [r.entitySet.name, r.entitySet.path] : [])]).toEqual(names);
});

it('names every resource and entity set once', () => {
  const sets = ALL_RESOURCES.flatMap((r) => (r.entitySet ? [r.entitySet.name, r.entitySet.path] : []));
  expect(new Set(sets).size).toBe(sets.length);
  expect(new Set(ALL_RESOURCES.map((r) => r.name)).size).toBe(ALL_RESOURCES.length);
});
