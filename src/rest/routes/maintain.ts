import type { Request, Response, Router } from 'express';
import { requireScope, SCOPES, seesPersonalData, type Scope } from '../../auth/principal';
import type { RecordWriter } from '../../domain/maintenance/write-service';
import type { Actor } from '../../domain/context';
import { AppError } from '../../errors/catalogue';
import { sendJson, sendRecord } from '../respond';
import { deltaRecords } from '../odata/delta';
import type { PathMethods } from '../writable';

/** The reference data a billing office maintains (billing.maintain): its writes, on the collection's read-only routes. */
export function maintainedWrites(writer: RecordWriter): (r: Router) => void {
  return (r) => {
    r.post('/', async (req, res) => {
      const who = maintainer(res);
      sendRecord(req, res, await writer.create(req.body, who), 201);
    });
    const key = writer.alternateKey;
    if (key) r.patch('/', async (req, res) => sendBulk(req, res, writer, key.field));
    r.put('/:id', async (req, res) => {
      const who = maintainer(res);
      const o = { ifMatch: req.get('if-match'), ifNoneMatch: req.get('if-none-match') };
      if (res.locals.alternateKey === undefined) return sendUpdated(req, res, await writer.replace(req.params.id, req.body, who, o));
      // `PUT /customers(debtorNumber='…')`: the record with that key, replaced or created (routes odataPaths).
      const { record, created } = await writer.upsert(res.locals.alternateKey, req.body, who, o);
      if (created) sendRecord(req, res, record, 201);
      else sendUpdated(req, res, record);
    });
    r.patch('/:id', async (req, res) => {
      const who = maintainer(res);
      sendUpdated(req, res, await writer.patch(req.params.id, req.body, who, { ifMatch: req.get('if-match') }));
    });
    r.delete('/:id', async (req, res) => {
      const who = maintainer(res);
      await writer.delete(req.params.id, who, { ifMatch: req.get('if-match') });
      res.status(204).end();
    });
  };
}

/**
 * Answers the methods a collection's paths do not take (after the routes that take the
 * others): 405 with `Allow`. The collection, `/$count` and one record are read with GET
 * (and HEAD), unless `itemRead` is false (prices are read through their article).
 */
export function refuseOtherMethods(r: Router, methods: PathMethods, { count = true, itemRead = true } = {}): void {
  const reads = ['GET', 'HEAD'];
  refuseMethods(r, '/', [...reads, ...methods.collection]);
  if (count) refuseMethods(r, '/\\$count', reads);
  const item = [...(itemRead ? reads : []), ...methods.item];
  if (item.length > 0) refuseMethods(r, '/:id', item);
}

/** 405 with `Allow` for every method on `path` but those `allow` names (routed before this). */
export function refuseMethods(r: Router, path: string, allow: readonly string[]): void {
  r.all(path, (_req, res) => {
    res.setHeader('Allow', allow.join(', '));
    throw new AppError('METHOD_NOT_ALLOWED', `This path takes ${allow.join(', ')}`);
  });
}

/** The caller of a write that needs `scope`, with the request id its change-log entries carry and whether it may see personal data. */
export function actorOf(res: Response, scope: Scope): Actor {
  const principal = requireScope(res.locals.principal, scope);
  return { userId: principal.userId, requestId: res.locals.requestId, personalData: seesPersonalData(principal) };
}

/** The caller of a maintaining write (billing.maintain). */
export const maintainer = (res: Response): Actor => actorOf(res, SCOPES.maintain);

/**
 * PATCH of a collection: the bulk upsert of a delta payload (./odata/delta.ts). 200 with a
 * result per record; `Prefer: return=minimal` leaves the records out (204 when none was
 * refused); `Prefer: odata.continue-on-error` (OData 4.01 also `continue-on-error`) keeps the
 * valid records when others are refused.
 */
async function sendBulk(req: Request, res: Response, writer: RecordWriter, field: string): Promise<void> {
  const who = maintainer(res);
  const set = req.baseUrl.split('/').at(-1) ?? '';
  const prefer = req.get('prefer') ?? '';
  const minimal = /(^|[,;\s])return=minimal\b/i.test(prefer);
  const continueOnError = /(^|[,;\s])((?:odata\.)?continue-on-error)\b(?!\s*=\s*false)/i.exec(prefer)?.[2];
  const { results, counts } = await writer.upsertMany(deltaRecords(req.body, set, field), who, {
    continueOnError: continueOnError !== undefined,
    records: !minimal,
  });
  const applied = [...(minimal ? ['return=minimal'] : []), ...(continueOnError ? [continueOnError] : [])];
  if (applied.length > 0) res.setHeader('Preference-Applied', applied.join(', '));
  if (minimal && counts.refused === 0) return void res.status(204).end();
  sendJson(res, 200, { ...counts, value: minimal ? results.filter((r) => r.result === 'refused') : results });
}

/** 200 with the record, or 204 with only its ETag when the client prefers `return=minimal` (OData). */
export function sendUpdated(req: Request, res: Response, record: { id: string }): void {
  sendRecord(req, res, record, /(^|[,;\s])return=minimal\b/i.test(req.get('prefer') ?? '') ? 204 : 200);
}
