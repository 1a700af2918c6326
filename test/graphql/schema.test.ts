// schema.graphql against the rest of the code: the Where and OrderBy inputs list exactly
// the fields of each resource's FieldCatalog (so the two doors cannot drift apart), every
// type and field is described, and the scalars behave as documented.

import { GraphQLEnumType, GraphQLInputObjectType, GraphQLObjectType, isInputObjectType, Kind, print } from 'graphql';
import { academicTermFields } from '../../src/domain/academic-term/fields';
import { ACCOUNT_TYPES, accountFields } from '../../src/domain/account/fields';
import { addressFields } from '../../src/domain/address/fields';
import { articlePriceFields } from '../../src/domain/article-price/fields';
import { articleFields } from '../../src/domain/article/fields';
import { customerFields } from '../../src/domain/customer/fields';
import { SOURCE_TYPES, paymentSourceFields } from '../../src/domain/payment-source/fields';
import { paymentFields } from '../../src/domain/payment/fields';
import { TAX_TYPES, taxCodeFields } from '../../src/domain/tax-code/fields';
import type { FieldCatalog } from '../../src/query/fields';
import { resolvers } from '../../src/graphql/resolvers';
import { DateTimeScalar, DecimalScalar, UUIDScalar } from '../../src/graphql/scalars';
import { stringifyExact as stringifyResult } from '../../src/http/json';
import { readSchema } from '../../src/graphql/server';
import { subgraphSchema } from '../../src/graphql/federation';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../src/domain/common/list';
import { MAX_QUOTE_LINES } from '../../src/domain/pricing/schema';

// The schema the door serves: schema.graphql as an Apollo Federation subgraph.
const schema = subgraphSchema(readSchema(), resolvers);

const CATALOGS: Record<string, FieldCatalog> = {
  PaymentSource: paymentSourceFields,
  Payment: paymentFields,
  Account: accountFields,
  Article: articleFields,
  ArticlePrice: articlePriceFields,
  Customer: customerFields,
  Address: addressFields,
  TaxCode: taxCodeFields,
  AcademicTerm: academicTermFields,
};

const FILTER_OF: Record<string, string> = {
  uuid: 'UUIDFilter',
  string: 'StringFilter',
  boolean: 'BooleanFilter',
  decimal: 'DecimalFilter',
  datetime: 'DateTimeFilter',
};
const ENUM_FILTERS: Record<string, string> = { sourceType: 'SourceTypeFilter', type: 'AccountTypeFilter', taxType: 'TaxTypeFilter' };
const SCALAR_OF: Record<string, string> = { uuid: 'UUID', string: 'String', boolean: 'Boolean', decimal: 'Decimal', datetime: 'DateTime' };
const ENUM_TYPES: Record<string, string> = { sourceType: 'SourceType', type: 'AccountType', taxType: 'TaxType' };

const input = (name: string): GraphQLInputObjectType => {
  const t = schema.getType(name);
  if (!isInputObjectType(t)) throw new Error(`${name} is not an input type`);
  return t;
};

describe.each(Object.entries(CATALOGS))('%s', (typeName, catalog) => {
  test('the Where input has exactly the catalogue fields (with filters of their type) plus AND, OR, NOT', () => {
    const where = input(`${typeName}Where`).getFields();
    expect(Object.keys(where).sort()).toEqual([...Object.keys(catalog), 'AND', 'OR', 'NOT'].sort());
    for (const [name, spec] of Object.entries(catalog)) {
      const expected = spec.type === 'enum' ? ENUM_FILTERS[name] : FILTER_OF[spec.type];
      expect(`${name}: ${String(where[name]!.type)}`).toBe(`${name}: ${expected}`);
    }
    expect(String(where.AND!.type)).toBe(`[${typeName}Where!]`);
    expect(String(where.NOT!.type)).toBe(`${typeName}Where`);
  });

  test('the OrderBy input has exactly the catalogue fields', () => {
    const orderBy = input(`${typeName}OrderBy`).getFields();
    expect(Object.keys(orderBy).sort()).toEqual(Object.keys(catalog).sort());
    for (const f of Object.values(orderBy)) expect(String(f.type)).toBe('SortDirection');
  });

  test('the object type has every catalogue field, with its type and nullability', () => {
    const fields = (schema.getType(typeName) as GraphQLObjectType).getFields();
    for (const [name, spec] of Object.entries(catalog)) {
      const base = spec.type === 'enum' ? ENUM_TYPES[name] : SCALAR_OF[spec.type];
      expect(`${name}: ${String(fields[name]?.type)}`).toBe(`${name}: ${base}${spec.nullable ? '' : '!'}`);
    }
  });

  test('exactly the personal fields carry @requiresScopes(billing.pii) and say so, in the type, Where and OrderBy', () => {
    for (const type of [typeName, `${typeName}Where`, `${typeName}OrderBy`]) {
      const fields = (schema.getType(type) as GraphQLObjectType | GraphQLInputObjectType).getFields();
      for (const [name, spec] of Object.entries(catalog)) {
        const f = fields[name]!;
        const directive = f.astNode?.directives?.find((d) => d.name.value === 'requiresScopes');
        const scopes = directive?.arguments?.[0]?.value;
        expect(`${type}.${name}: ${scopes ? print(scopes) : 'none'}`).toBe(
          `${type}.${name}: ${spec.personal ? '[["billing.pii"]]' : 'none'}`,
        );
        expect(`${type}.${name}: ${String(f.description?.includes('billing.pii'))}`).toBe(
          `${type}.${name}: ${String(spec.personal === true)}`,
        );
      }
    }
  });

  test('Query has a single field and a paged list field', () => {
    const query = schema.getQueryType()!.getFields();
    const single = typeName[0]!.toLowerCase() + typeName.slice(1);
    const list = single === 'address' ? 'addresses' : `${single}s`;
    expect(String(query[single]!.type)).toBe(typeName);
    expect(query[single]!.args.map((a) => `${a.name}: ${String(a.type)}`)).toEqual(['id: ID!']);
    expect(String(query[list]!.type)).toBe(`${typeName}Connection!`);
    expect(query[list]!.args.map((a) => `${a.name}: ${String(a.type)}`)).toEqual([
      `where: ${typeName}Where`,
      `orderBy: [${typeName}OrderBy!]`,
      'first: Int',
      'after: String',
      'offset: Int',
    ]);
    // The schema states the list limits as literals; they are the service's constants.
    const first = query[list]!.args.find((a) => a.name === 'first')!;
    expect(first.defaultValue).toBe(DEFAULT_PAGE_SIZE);
    expect(first.description).toBe(`Page size: 0 to ${MAX_PAGE_SIZE}.`);
  });
});

test("QuoteInput.lines states the service's limit", () => {
  expect(input('QuoteInput').getFields().lines!.description).toBe(`The lines (1 to ${MAX_QUOTE_LINES}).`);
});

test('the enums hold the API values (TaxType maps to the API strings in the resolvers)', () => {
  const values = (name: string) => (schema.getType(name) as GraphQLEnumType).getValues().map((v) => v.name);
  expect(values('SourceType')).toEqual([...SOURCE_TYPES]);
  expect(values('AccountType')).toEqual([...ACCOUNT_TYPES]);
  expect(Object.values(resolvers.TaxType as Record<string, string>).sort()).toEqual([...TAX_TYPES].sort());
  expect(Object.keys(resolvers.TaxType as Record<string, string>).sort()).toEqual(values('TaxType').sort());
});

test('every type, field, argument, input field and enum value has a description', () => {
  const missing: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || ['String', 'Int', 'Float', 'Boolean', 'ID'].includes(type.name)) continue;
    // The federation spec's own types (`_Service`, `_Any`, `link__Import`, `federation__FieldSet`, ...) come from @apollo/subgraph.
    if (/^(_|link__|federation__)/.test(type.name)) continue;
    if (!type.description) missing.push(type.name);
    if (type instanceof GraphQLObjectType || type instanceof GraphQLInputObjectType) {
      for (const f of Object.values(type.getFields())) {
        if (f.name.startsWith('_')) continue; // federation's `_service` and `_entities`
        if (!f.description) missing.push(`${type.name}.${f.name}`);
        for (const a of 'args' in f ? f.args : []) if (!a.description) missing.push(`${type.name}.${f.name}(${a.name})`);
      }
    }
    if (type instanceof GraphQLEnumType) for (const v of type.getValues()) if (!v.description) missing.push(`${type.name}.${v.name}`);
  }
  expect(missing).toEqual([]);
});

describe('scalars', () => {
  const lit = (kind: Kind.STRING | Kind.INT | Kind.FLOAT, value: string) => ({ kind, value }) as never;

  test('UUID: any case in, lower case out; anything else is refused', () => {
    expect(UUIDScalar.parseValue('3FA85F64-5717-4562-B3FC-2C963F66AFA6')).toBe('3fa85f64-5717-4562-b3fc-2c963f66afa6');
    expect(UUIDScalar.parseLiteral(lit(Kind.STRING, '3FA85F64-5717-4562-B3FC-2C963F66AFA6'))).toBe('3fa85f64-5717-4562-b3fc-2c963f66afa6');
    for (const bad of ['', 'abc', '3fa85f64-5717-4562-b3fc-2c963f66afa', 42, null])
      expect(() => UUIDScalar.parseValue(bad)).toThrow(/UUID/);
    expect(() => UUIDScalar.parseLiteral(lit(Kind.INT, '5'))).toThrow(/string/);
  });

  test('DateTime: ISO 8601 with a zone (or a plain date) in, UTC with milliseconds out', () => {
    expect(DateTimeScalar.parseValue('2026-01-01T01:30:00+01:00')).toEqual(new Date('2026-01-01T00:30:00Z'));
    expect(DateTimeScalar.parseValue('2026-03-01')).toEqual(new Date('2026-03-01T00:00:00Z'));
    for (const bad of ['2026-01-01T00:00:00', '2026-02-30', 'yesterday', 1700000000000])
      expect(() => DateTimeScalar.parseValue(bad)).toThrow();
    expect(DateTimeScalar.serialize(new Date('2026-01-01T00:00:00Z'))).toBe('2026-01-01T00:00:00.000Z');
    // Remembered texts (the scalar keeps the last ones written) are the same texts, past the memo's size too.
    const instants = Array.from({ length: 3000 }, (_, i) => new Date(Date.UTC(2020, 0, 1) + ((i * 7919) % 2500) * 3_600_123));
    expect(instants.map((d) => DateTimeScalar.serialize(d))).toEqual(instants.map((d) => d.toISOString()));
    expect(() => DateTimeScalar.serialize(new Date(Number.NaN))).toThrow();
  });

  test('Decimal: exact text in, exact JSON numbers out', () => {
    expect(DecimalScalar.parseValue(19.5)).toBe('19.5');
    expect(DecimalScalar.parseValue('19.00')).toBe('19.00');
    expect(DecimalScalar.parseValue('+.5')).toBe('0.5');
    expect(DecimalScalar.parseValue(1e21)).toBe('1000000000000000000000');
    expect(DecimalScalar.parseLiteral(lit(Kind.FLOAT, '0.1000'))).toBe('0.1000');
    expect(DecimalScalar.parseLiteral(lit(Kind.INT, '7'))).toBe('7');
    for (const bad of ['abc', '1e999999', '', 'NaN', true, null, Number.NaN]) expect(() => DecimalScalar.parseValue(bad)).toThrow();
    const out = DecimalScalar.serialize({ toFixed: () => '12345678901234.5678' });
    expect(stringifyResult({ data: { a: out, b: 'text', c: 1 } })).toBe('{"data":{"a":12345678901234.5678,"b":"text","c":1}}');
    // 0.1 + 0.2 style values never pass through a float.
    expect(stringifyResult({ v: DecimalScalar.serialize('0.30000000000000000001') })).toBe('{"v":0.30000000000000000001}');
  });
});
