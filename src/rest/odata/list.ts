import type { Request, Response } from 'express';
import { seesPersonalData } from '../../auth/principal';
import { etagListed, etagOf } from '../../domain/common/etag';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pick, type ListQuery, type Page } from '../../domain/common/list';
import { isIn, uuid, type Expansion } from '../../query/filter-tree';
import type { EntitySetModel } from './model';
import { COUNT_OPTIONS, decodeComponent, optionName, parseODataOptions, RECORD_OPTIONS } from './options';
import { sendJson, withEtag } from '../respond';

export interface Listable<T extends object> {
  list(q: ListQuery): Promise<Page<T>>;
  /** Relations inside every record even without an $expand (REST's customers hold their addresses). */
  readonly inlineRelations?: readonly string[];
}

export interface Retrievable<T> {
  readonly inlineRelations?: readonly string[];
  get(
    id: string,
    expand?: readonly Expansion[],
    access?: { readonly personalData: boolean; readonly select?: readonly string[] | undefined },
  ): Promise<T>;
}

/** Whether the request's caller may see personal fields (the service leaves them out and refuses queries naming them otherwise). */
const personalDataOf = (res: Response): boolean => seesPersonalData(res.locals.principal);

/** The raw query string of the request (without `?`), exactly as the client wrote it. */
export const rawQuery = (req: Request): string => {
  const q = req.originalUrl.indexOf('?');
  return q < 0 ? '' : req.originalUrl.slice(q + 1);
};

/**
 * The absolute URL of the REST base (`https://host/api/v1`), for links and contexts: noted
 * by the REST router before routing (a nested router's baseUrl includes its own path).
 */
export const serviceRoot = (req: Request, res: Response): string => {
  const base: unknown = res.locals.serviceBase;
  return `${req.protocol}://${req.get('host') ?? 'localhost'}${typeof base === 'string' ? base : req.baseUrl}`;
};

/** `@odata.context` of a collection: the metadata URL and the set (with the $select list). */
export function context(req: Request, res: Response, set: EntitySetModel, select: readonly string[] | undefined): string {
  return `${serviceRoot(req, res)}/$metadata#${set.name}${select ? `(${select.join(',')})` : ''}`;
}

/**
 * GET on a collection with OData options: `{ @odata.context, @odata.count?, value, @odata.nextLink? }`.
 * Without $top the server cuts pages of DEFAULT_PAGE_SIZE and links to the next one while more
 * records match; a $top up to MAX_PAGE_SIZE is answered in one response.
 */
export async function sendODataList<T extends { id: string }>(
  req: Request,
  res: Response,
  service: Listable<T>,
  set: EntitySetModel,
): Promise<void> {
  const o = parseODataOptions(rawQuery(req), set.fields, {
    maxTop: MAX_PAGE_SIZE,
    defaultTop: DEFAULT_PAGE_SIZE,
    relations: set.relations,
  });
  const cut = o.top === undefined;
  const limit = o.top ?? DEFAULT_PAGE_SIZE;
  const page = await service.list({
    filter: o.filter,
    orderBy: o.orderBy,
    limit,
    offset: o.skip,
    count: o.count,
    expand: o.expand,
    select: o.select,
    personalData: personalDataOf(res),
  });
  const body: Record<string, unknown> = { '@odata.context': context(req, res, set, o.select) };
  if (o.count) body['@odata.count'] = page.totalCount;
  // $select projects in the door; expanded relations come with the record whatever it names (OData).
  const expanded = (o.expand ?? []).map((e) => e.relation);
  const etags = await listedEtags(service, page.items, expanded, personalDataOf(res));
  body.value = page.items.map((item) => withEtag(req, etags.get(item.id)!, o.select ? pick(item, [...o.select, ...expanded]) : item));
  if (cut && page.hasMore) body['@odata.nextLink'] = nextLink(req, o.skip + limit);
  sendJson(res, 200, body);
}

/** GET `/<set>/$count`: the number of matching records as plain text. */
export async function sendODataCount<T extends object>(
  req: Request,
  res: Response,
  service: Listable<T>,
  set: EntitySetModel,
): Promise<void> {
  const o = parseODataOptions(rawQuery(req), set.fields, { allowed: COUNT_OPTIONS });
  const page = await service.list({ filter: o.filter, limit: 0, count: true, personalData: personalDataOf(res) });
  res
    .status(200)
    .type('text/plain')
    .send(String(page.totalCount ?? 0));
}

/**
 * GET one record, with `$select` and `$expand`. The ETag is that of the record without the
 * expansions and before `$select`, so it is the one PUT, PATCH and DELETE compare with,
 * whatever the client chose to see; `If-None-Match` naming it is answered 304 (without
 * `$expand`).
 */
export async function sendODataRecord<T extends { id: string }>(
  req: Request,
  res: Response,
  service: Retrievable<T>,
  set: EntitySetModel,
  id: string,
): Promise<void> {
  const o = parseODataOptions(rawQuery(req), set.fields, { allowed: RECORD_OPTIONS, relations: set.relations });
  const record = await service.get(id, o.expand, { personalData: personalDataOf(res), select: o.select });
  const expanded = (o.expand ?? []).map((e) => e.relation);
  // An $expand of a relation the record holds anyway may reshape it: its ETag is then the record's as read without.
  const reshaped = expanded.some((r) => service.inlineRelations?.includes(r));
  const etag = etagOf(reshaped ? await service.get(id, undefined, { personalData: personalDataOf(res) }) : unexpanded(record, expanded));
  res.setHeader('ETag', etag);
  // A browser may keep the record but asks again each time; If-None-Match makes that a 304
  // without a body. Not with $expand: the ETag covers the record, not the records expanded into it.
  res.setHeader('Cache-Control', 'private, no-cache');
  const ifNoneMatch = req.get('if-none-match');
  if (ifNoneMatch !== undefined && expanded.length === 0 && etagListed(ifNoneMatch, etag)) {
    res.status(304).end();
    return;
  }
  // Express's res.send answers 304 by itself when If-None-Match names the response's ETag.
  if (expanded.length > 0) delete req.headers['if-none-match'];
  const shown = o.select ? pick(record, [...o.select, ...expanded]) : record;
  sendJson(res, 200, withEtag(req, etag, shown));
}

/**
 * Each listed record's ETag, the one its own GET answers: the record without what `$expand`
 * put inside it. An $expand of a relation the records hold anyway (customers' addresses) may
 * reshape it; those records are read again without (one read for the page).
 */
async function listedEtags<T extends { id: string }>(
  service: Listable<T>,
  items: readonly T[],
  expanded: readonly string[],
  personalData: boolean,
): Promise<Map<string, string>> {
  const reshaped = items.length > 0 && expanded.some((r) => service.inlineRelations?.includes(r));
  if (!reshaped) return new Map(items.map((i) => [i.id, etagOf(unexpanded(i, expanded))]));
  const ids = items.map((i) => uuid(i.id));
  const plain = await service.list({ filter: isIn('id', ids), limit: items.length, personalData });
  return new Map(plain.items.map((r) => [r.id, etagOf(r)]));
}

/** The record without the relations `$expand` put inside it: what its ETag covers. */
function unexpanded(record: object, expanded: readonly string[]): Record<string, unknown> {
  return pick(
    record,
    Object.keys(record).filter((k) => !expanded.includes(k)),
  );
}

/**
 * The client's own query with `$skip` set to where the next page starts. Every other
 * parameter is kept exactly as written, and any spelling of skip (`skip=`, `$Skip=`) is
 * replaced, so following the link never gives the option twice.
 */
function nextLink(req: Request, skip: number): string {
  return linkWith(req, ['$skip'], `%24skip=${skip}`);
}

/** The client's own query with the options `drop` (any spelling) replaced by `added`. */
export function linkWith(req: Request, drop: readonly string[], added: string): string {
  const kept = rawQuery(req)
    .split('&')
    .filter((part) => {
      const name = part.split('=')[0] ?? '';
      return part.length > 0 && !drop.includes(optionName(decodeComponent(name) ?? name) ?? '');
    });
  const path = req.originalUrl.split('?')[0] ?? '';
  return `${req.protocol}://${req.get('host') ?? 'localhost'}${path}?${[...kept, added].join('&')}`;
}
