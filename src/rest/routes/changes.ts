import { Router, type Request, type Response } from 'express';
import { requireScope, SCOPES, seesPersonalData } from '../../auth/principal';
import type { LoggedResource } from '../../domain/change-log/append';
import { parseSeq, type ChangeEntry } from '../../domain/change-log/service';
import { etagOf } from '../../domain/common/etag';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, pick } from '../../domain/common/list';
import type { Services } from '../../domain/services';
import { invalidQuery } from '../../errors/catalogue';
import { allOf, type FilterNode } from '../../query/filter-tree';
import { context, linkWith, rawQuery } from '../odata/list';
import { CHANGES_SET, RESOURCE_SETS, type ResourceSetModel } from '../odata/model';
import { RESOURCES } from '../../domain/resources';
import { decodeComponent, optionName, parseODataOptions, type OptionName } from '../odata/options';
import { sendJson, withEtag } from '../respond';
import { readOnlyRoutes } from './read-only';

// The change log through REST (docs/changes.md), readable with the scope billing.audit:
// GET /changes, an OData list, and GET /<set>/{id}/history, one record's entries.
//
// Without $orderby a list is the feed: entries in seq order; a page the server cut links to
// the next with `$skiptoken=<last seq>`, and the last page carries `@odata.deltaLink` with
// `$deltatoken=<last seq>`, which answers later with just the entries committed since. A
// cursor is a position in seq order, and entries become visible in seq order (the database's
// advisory lock), so following the links never skips or repeats an entry. With $orderby the
// list pages with $skip like every other list, and has no delta link.

const TOKENS = ['$skiptoken', '$deltatoken'];
const LIST_OPTIONS: readonly OptionName[] = ['$filter', '$orderby', '$top', '$skip', '$count', '$select', '$format'];

/** The entity sets with a history path, and the change log's name of their records. */
const HISTORY: ReadonlyArray<readonly [ResourceSetModel, LoggedResource]> = RESOURCE_SETS.map((set) => {
  // test/change-log/resources.test.ts holds the log's resource names to the declarations'.
  return [set, RESOURCES[set.type].name] as const;
});

/** The cursor the client sent ($skiptoken or $deltatoken, at most one of them, once), and the query without it. */
function splitTokens(req: Request): { query: string; after: bigint | undefined } {
  let after: bigint | undefined;
  const kept: string[] = [];
  for (const part of rawQuery(req).split('&')) {
    const [name = '', ...value] = part.split('=');
    const option = optionName(decodeComponent(name) ?? name) ?? '';
    if (!TOKENS.includes(option)) {
      if (part.length > 0) kept.push(part);
      continue;
    }
    if (after !== undefined) throw invalidQuery(option, 'give one $skiptoken or $deltatoken', 0);
    after = parseSeq(option, decodeComponent(value.join('=')) ?? '');
  }
  return { query: kept.join('&'), after };
}

async function sendChanges(req: Request, res: Response, s: Services, fixed: FilterNode | undefined): Promise<void> {
  const set = CHANGES_SET;
  const { query, after } = splitTokens(req);
  const o = parseODataOptions(query, set.fields, { maxTop: MAX_PAGE_SIZE, defaultTop: DEFAULT_PAGE_SIZE, allowed: LIST_OPTIONS });
  const filter = allOf(fixed, o.filter);
  const cut = o.top === undefined;
  const limit = o.top ?? DEFAULT_PAGE_SIZE;
  const personalData = seesPersonalData(res.locals.principal);
  const body: Record<string, unknown> = { '@odata.context': context(req, res, set, o.select) };
  // Each entry with its ETag first (`@odata.etag`), as GET /changes/{id} gives it.
  const shown = (items: ChangeEntry[]) => items.map((e) => withEtag(req, etagOf(e), o.select ? pick(e, o.select) : e));
  if (o.orderBy && o.orderBy.length > 0) {
    if (after !== undefined) throw invalidQuery('$skiptoken', 'a cursor follows the feed order: leave out $orderby', 0);
    const page = await s.changeLog.list({ filter, orderBy: o.orderBy, limit, offset: o.skip, count: o.count, personalData });
    if (o.count) body['@odata.count'] = page.totalCount;
    body.value = shown(page.items);
    if (cut && page.hasMore) body['@odata.nextLink'] = linkWith(req, ['$skip', ...TOKENS], `%24skip=${o.skip + limit}`);
  } else {
    const page = await s.changeLog.feed({ filter, after, limit, offset: o.skip, count: o.count, personalData });
    if (o.count) body['@odata.count'] = page.totalCount;
    body.value = shown(page.items);
    // The cursor holds the position: a link never repeats the client's $skip.
    if (cut && page.hasMore) body['@odata.nextLink'] = linkWith(req, ['$skip', ...TOKENS], `%24skiptoken=${page.cursor}`);
    else if (!page.hasMore) body['@odata.deltaLink'] = linkWith(req, ['$skip', ...TOKENS], `%24deltatoken=${page.cursor}`);
  }
  sendJson(res, 200, body);
}

/** GET /changes (the feed), /changes/$count and /changes/{id} (mounted at its path). */
export function changeRoutes(s: Services): Router {
  return readOnlyRoutes(s.changeLog, CHANGES_SET, { scope: SCOPES.audit, list: (req, res) => sendChanges(req, res, s, undefined) });
}

/** GET /<set>/{id}/history for each set that has one (mounted at the REST root). */
export function historyRoutes(s: Services): Router {
  const r = Router();
  for (const [set, resource] of HISTORY) {
    r.get(`/${set.path}/:id/history`, async (req, res) => {
      requireScope(res.locals.principal, SCOPES.audit);
      const reader = s.readers[set.type];
      const fixed = await s.changeLog.historyFilter(resource, req.params.id ?? '', (id) => reader.get(id));
      await sendChanges(req, res, s, fixed);
    });
  }
  return r;
}
