// The service's OData metadata (CSDL) and service document, generated from the OData model
// (src/rest/odata/model.ts), which reads each resource's field and relation catalogue: so
// the types, keys, nullability, allowed values and relations described here are the ones
// the filters, the database and the GraphQL schema use.
//
// Enum fields are described as strings with the Validation vocabulary's AllowedValues rather
// than as OData enumeration types: their values (`Sales Tax`) are not OData identifiers, and
// on the wire they are exactly these strings, compared with string literals in $filter.

import type { FieldSpec, RelationSpec } from '../../query/fields';
import { alternateKeyFieldOf, methodsOf, READ_ONLY } from '../writable';
import { ALL_ENTITY_SETS, CONTAINER, entityTypes, NAMESPACE, RESOURCE_SETS, type EntityTypeModel } from './model';

const VALIDATION = { namespace: 'Org.OData.Validation.V1', alias: 'Validation' } as const;
const VOCABULARY_URL = 'https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Validation.V1';
// SAP's PersonalData vocabulary marks the personal fields (src/query/fields.ts `personal`):
// IsPotentiallyPersonal on each. None is IsPotentiallySensitive (special categories of data:
// health, religion, ...), which names, addresses and student ids are not.
const PERSONAL_DATA = { namespace: 'com.sap.vocabularies.PersonalData.v1', alias: 'PersonalData' } as const;
const PERSONAL_DATA_URL = 'https://sap.github.io/odata-vocabularies/vocabularies/PersonalData';
const CAPABILITIES = { namespace: 'Org.OData.Capabilities.V1', alias: 'Capabilities' } as const;
const CAPABILITIES_URL = 'https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Capabilities.V1';
// Core's AlternateKeys: records addressed by a key besides the id (`/Customers(debtorNumber='…')`).
const CORE = { namespace: 'Org.OData.Core.V1', alias: 'Core' } as const;
const CORE_URL = 'https://oasis-tcs.github.io/odata-vocabularies/vocabularies/Org.OData.Core.V1';

/** The entity types with an alternate key, and its property. */
const ALTERNATE_KEYS: ReadonlyArray<readonly [string, string]> = RESOURCE_SETS.flatMap((set) => {
  const field = alternateKeyFieldOf(set.type);
  return field ? [[set.type, field] as const] : [];
});

function xmlAlternateKeys(): string[] {
  return ALTERNATE_KEYS.map(
    ([type, field]) =>
      `<Annotations Target="${qualified(type)}"><Annotation Term="${CORE.alias}.AlternateKeys"><Collection><Record><PropertyValue Property="Key"><Collection><Record><PropertyValue Property="Name" PropertyPath="${field}"/><PropertyValue Property="Alias" String="${field}"/></Record></Collection></PropertyValue></Record></Collection></Annotation></Annotations>`,
  );
}

function jsonAlternateKeys(): [string, Record<string, unknown>][] {
  return ALTERNATE_KEYS.map(([type, field]) => [
    qualified(type),
    { [`@${CORE.alias}.AlternateKeys`]: [{ Key: [{ Name: field, Alias: field }] }] },
  ]);
}

/** What each entity set takes besides reads (Capabilities: Insertable, Updatable, Deletable), from the methods its paths take; the change log is read-only. */
const WRITABLE: ReadonlyArray<readonly [string, Readonly<Record<'Insert' | 'Update' | 'Delete', boolean>>]> = ALL_ENTITY_SETS.map((set) => {
  const resource = RESOURCE_SETS.find((r) => r.name === set.name);
  const m = resource ? methodsOf(resource.type) : READ_ONLY;
  return [
    set.name,
    {
      Insert: m.collection.includes('POST'),
      Update: m.item.includes('PUT') || m.item.includes('PATCH'),
      Delete: m.item.includes('DELETE'),
    },
  ] as const;
});
const CAPABILITY_PROPERTY = { Insert: 'Insertable', Update: 'Updatable', Delete: 'Deletable' } as const;

function xmlCapabilities(): string[] {
  return WRITABLE.map(
    ([set, can]) =>
      `<Annotations Target="${qualified(CONTAINER)}/${set}">${(['Insert', 'Update', 'Delete'] as const)
        .map(
          (k) =>
            `<Annotation Term="${CAPABILITIES.alias}.${k}Restrictions"><Record><PropertyValue Property="${CAPABILITY_PROPERTY[k]}" Bool="${can[k]}"/></Record></Annotation>`,
        )
        .join('')}</Annotations>`,
  );
}

function jsonCapabilities(): [string, Record<string, unknown>][] {
  return WRITABLE.map(([set, can]) => [
    `${qualified(CONTAINER)}/${set}`,
    Object.fromEntries(
      (['Insert', 'Update', 'Delete'] as const).map((k) => [
        `@${CAPABILITIES.alias}.${k}Restrictions`,
        { [CAPABILITY_PROPERTY[k]]: can[k] },
      ]),
    ),
  ]);
}

/** $batch (src/rest/batch): multipart (4.0) and JSON (4.01), continue-on-error, `$<id>` in URLs across change sets. */
const BATCH_SUPPORT = {
  Supported: true,
  ContinueOnErrorSupported: true,
  ReferencesInRequestBodiesSupported: false,
  ReferencesAcrossChangeSetsSupported: true,
  EtagReferencesSupported: false,
  RequestDependencyConditionsSupported: false,
  SupportedFormats: ['multipart/mixed', 'application/json'],
} as const;

function xmlBatchSupport(): string {
  const values = Object.entries(BATCH_SUPPORT)
    .map(([name, v]) =>
      typeof v === 'boolean'
        ? `<PropertyValue Property="${name}" Bool="${v}"/>`
        : `<PropertyValue Property="${name}"><Collection>${v.map((t) => `<String>${t}</String>`).join('')}</Collection></PropertyValue>`,
    )
    .join('');
  return (
    `<Annotations Target="${qualified(CONTAINER)}"><Annotation Term="${CAPABILITIES.alias}.BatchSupported" Bool="true"/>` +
    `<Annotation Term="${CAPABILITIES.alias}.BatchSupport"><Record>${values}</Record></Annotation></Annotations>`
  );
}

const jsonBatchSupport = (): [string, Record<string, unknown>] => [
  qualified(CONTAINER),
  { [`@${CAPABILITIES.alias}.BatchSupported`]: true, [`@${CAPABILITIES.alias}.BatchSupport`]: { ...BATCH_SUPPORT } },
];

const EDM_TYPE: Readonly<Record<FieldSpec['type'], string>> = {
  uuid: 'Edm.Guid',
  string: 'Edm.String',
  boolean: 'Edm.Boolean',
  decimal: 'Edm.Decimal',
  datetime: 'Edm.DateTimeOffset',
  enum: 'Edm.String',
};

const qualified = (name: string): string => `${NAMESPACE}.${name}`;
const setOfType = (type: string): string | undefined => ALL_ENTITY_SETS.find((s) => s.type === type)?.name;

const escapeXml = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function xmlProperty(name: string, spec: FieldSpec): string {
  const facets = spec.type === 'decimal' ? ' Scale="variable"' : spec.type === 'datetime' ? ' Precision="3"' : '';
  return `<Property Name="${name}" Type="${EDM_TYPE[spec.type]}" Nullable="${spec.nullable}"${facets}/>`;
}

/** The allowed values of enum fields, as `Annotations` blocks targeting each property. */
function xmlAllowedValues(t: EntityTypeModel): string[] {
  return Object.entries(t.fields).flatMap(([name, spec]) => {
    if (spec.type !== 'enum') return [];
    const values = (spec.values ?? []).map((v) => `<Record><PropertyValue Property="Value" String="${escapeXml(v)}"/></Record>`).join('');
    return [
      `<Annotations Target="${qualified(t.name)}/${name}"><Annotation Term="${VALIDATION.alias}.AllowedValues"><Collection>${values}</Collection></Annotation></Annotations>`,
    ];
  });
}

/** IsPotentiallyPersonal on the personal fields, as `Annotations` blocks targeting each property. */
function xmlPersonalData(t: EntityTypeModel): string[] {
  return Object.entries(t.fields).flatMap(([name, spec]) =>
    spec.personal
      ? [
          `<Annotations Target="${qualified(t.name)}/${name}"><Annotation Term="${PERSONAL_DATA.alias}.IsPotentiallyPersonal" Bool="true"/></Annotations>`,
        ]
      : [],
  );
}

function xmlNavigation(name: string, r: RelationSpec): string {
  const type = r.many ? `Collection(${qualified(r.type)})` : qualified(r.type);
  const nullable = r.many ? '' : ` Nullable="${r.nullable}"`;
  // Records without an entity set of their own (prices, addresses) are contained in their parent.
  const contained = setOfType(r.type) ? '' : ' ContainsTarget="true"';
  const constraint = r.foreignKey ? `<ReferentialConstraint Property="${r.foreignKey}" ReferencedProperty="id"/>` : '';
  return constraint
    ? `<NavigationProperty Name="${name}" Type="${type}"${nullable}${contained}>${constraint}</NavigationProperty>`
    : `<NavigationProperty Name="${name}" Type="${type}"${nullable}${contained}/>`;
}

function xmlEntityType(t: EntityTypeModel): string {
  return [
    `<EntityType Name="${t.name}"${t.open ? ' OpenType="true"' : ''}>`,
    '<Key><PropertyRef Name="id"/></Key>',
    ...Object.entries(t.fields).map(([n, spec]) => xmlProperty(n, spec)),
    ...Object.entries(t.relations).map(([n, r]) => xmlNavigation(n, r)),
    '</EntityType>',
  ].join('');
}

function xmlEntitySets(): string {
  return ALL_ENTITY_SETS.map((s) => {
    const bindings = Object.entries(s.relations)
      .map(([n, r]) => [n, setOfType(r.type)] as const)
      .filter((b): b is readonly [string, string] => b[1] !== undefined)
      .map(([n, target]) => `<NavigationPropertyBinding Path="${n}" Target="${target}"/>`)
      .join('');
    return `<EntitySet Name="${s.name}" EntityType="${qualified(s.type)}">${bindings}</EntitySet>`;
  }).join('');
}

/** CSDL XML (OData 4.0). */
export const metadataXml: string = [
  '<?xml version="1.0" encoding="utf-8"?>',
  '<edmx:Edmx Version="4.0" xmlns:edmx="http://docs.oasis-open.org/odata/ns/edmx">',
  `<edmx:Reference Uri="${VOCABULARY_URL}.xml"><edmx:Include Namespace="${VALIDATION.namespace}" Alias="${VALIDATION.alias}"/></edmx:Reference>`,
  `<edmx:Reference Uri="${PERSONAL_DATA_URL}.xml"><edmx:Include Namespace="${PERSONAL_DATA.namespace}" Alias="${PERSONAL_DATA.alias}"/></edmx:Reference>`,
  `<edmx:Reference Uri="${CAPABILITIES_URL}.xml"><edmx:Include Namespace="${CAPABILITIES.namespace}" Alias="${CAPABILITIES.alias}"/></edmx:Reference>`,
  `<edmx:Reference Uri="${CORE_URL}.xml"><edmx:Include Namespace="${CORE.namespace}" Alias="${CORE.alias}"/></edmx:Reference>`,
  '<edmx:DataServices>',
  `<Schema Namespace="${NAMESPACE}" xmlns="http://docs.oasis-open.org/odata/ns/edm">`,
  ...entityTypes().map(xmlEntityType),
  `<EntityContainer Name="${CONTAINER}">${xmlEntitySets()}</EntityContainer>`,
  ...entityTypes().flatMap(xmlAllowedValues),
  ...entityTypes().flatMap(xmlPersonalData),
  ...xmlCapabilities(),
  ...xmlAlternateKeys(),
  xmlBatchSupport(),
  '</Schema>',
  '</edmx:DataServices>',
  '</edmx:Edmx>',
].join('\n');

function jsonProperty(spec: FieldSpec): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (EDM_TYPE[spec.type] !== 'Edm.String') out.$Type = EDM_TYPE[spec.type];
  if (spec.nullable) out.$Nullable = true;
  // An absent $Scale on a decimal is "variable" in CSDL JSON.
  if (spec.type === 'datetime') out.$Precision = 3;
  return out;
}

function jsonAllowedValues(t: EntityTypeModel): [string, Record<string, unknown>][] {
  return Object.entries(t.fields).flatMap(([name, spec]): [string, Record<string, unknown>][] =>
    spec.type === 'enum'
      ? [[`${qualified(t.name)}/${name}`, { [`@${VALIDATION.alias}.AllowedValues`]: (spec.values ?? []).map((v) => ({ Value: v })) }]]
      : [],
  );
}

function jsonPersonalData(t: EntityTypeModel): [string, Record<string, unknown>][] {
  return Object.entries(t.fields).flatMap(([name, spec]): [string, Record<string, unknown>][] =>
    spec.personal ? [[`${qualified(t.name)}/${name}`, { [`@${PERSONAL_DATA.alias}.IsPotentiallyPersonal`]: true }]] : [],
  );
}

function jsonNavigation(r: RelationSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { $Kind: 'NavigationProperty', $Type: qualified(r.type) };
  if (r.many) out.$Collection = true;
  else if (r.nullable) out.$Nullable = true;
  if (!setOfType(r.type)) out.$ContainsTarget = true;
  if (r.foreignKey) out.$ReferentialConstraint = { [r.foreignKey]: 'id' };
  return out;
}

/** CSDL JSON: the same model as the XML, in the form OASIS's converter gives for it. */
export const metadataJson: Record<string, unknown> = {
  $Version: '4.0',
  $EntityContainer: qualified(CONTAINER),
  $Reference: {
    [`${VOCABULARY_URL}.json`]: { $Include: [{ $Namespace: VALIDATION.namespace, $Alias: VALIDATION.alias }] },
    [`${PERSONAL_DATA_URL}.json`]: { $Include: [{ $Namespace: PERSONAL_DATA.namespace, $Alias: PERSONAL_DATA.alias }] },
    [`${CAPABILITIES_URL}.json`]: { $Include: [{ $Namespace: CAPABILITIES.namespace, $Alias: CAPABILITIES.alias }] },
    [`${CORE_URL}.json`]: { $Include: [{ $Namespace: CORE.namespace, $Alias: CORE.alias }] },
  },
  [NAMESPACE]: {
    ...Object.fromEntries(
      entityTypes().map((t) => [
        t.name,
        {
          $Kind: 'EntityType',
          ...(t.open ? { $OpenType: true } : {}),
          $Key: ['id'],
          ...Object.fromEntries(Object.entries(t.fields).map(([n, spec]) => [n, jsonProperty(spec)])),
          ...Object.fromEntries(Object.entries(t.relations).map(([n, r]) => [n, jsonNavigation(r)])),
        },
      ]),
    ),
    [CONTAINER]: {
      $Kind: 'EntityContainer',
      ...Object.fromEntries(
        ALL_ENTITY_SETS.map((s) => {
          const bindings = Object.fromEntries(
            Object.entries(s.relations)
              .map(([n, r]) => [n, setOfType(r.type)] as const)
              .filter((b): b is readonly [string, string] => b[1] !== undefined),
          );
          const set: Record<string, unknown> = { $Collection: true, $Type: qualified(s.type) };
          if (Object.keys(bindings).length > 0) set.$NavigationPropertyBinding = bindings;
          return [s.name, set];
        }),
      ),
    },
    $Annotations: Object.fromEntries([
      ...entityTypes().flatMap(jsonAllowedValues),
      ...entityTypes().flatMap(jsonPersonalData),
      ...jsonCapabilities(),
      ...jsonAlternateKeys(),
      jsonBatchSupport(),
    ]),
  },
};

/** The service document: every entity set with its URL relative to the service root. */
export function serviceDocument(root: string): Record<string, unknown> {
  return {
    '@odata.context': `${root}/$metadata`,
    value: ALL_ENTITY_SETS.map((s) => ({ name: s.name, kind: 'EntitySet', url: s.path })),
  };
}
