import express, { type Request, type RequestHandler, type Response } from 'express';
import { inject } from 'light-my-request';
import type { Services } from '../../domain/services';
import { AppError } from '../../errors/catalogue';
import { errorStyle } from '../../http/problem';
import { stringProp } from '../../lib/unknown';
import { BATCH_BODY_LIMIT, BATCH_LIMITS, invalidBatch, parseBatch, referenceOf, type BatchPlan } from './parse';
import { runBatch, type Dispatch, type InnerResponse } from './run';
import { injectable } from './inject-internals';
import { jsonAnswer, multipartAnswer } from './write';

// POST /api/v1/$batch (docs/batch.md). The app has checked the token; the body is read here
// (up to BATCH_LIMITS.bodyBytes) and parsed whole, limits included, before any request runs.
// Each request then goes through the app itself, injected in process by light-my-request:
// the same routes, token and scope checks, body limit, rate limit and error catalogue as a
// direct request. The requests carry the batch's token and a request id derived from its.

/** Headers of a request inside a batch that the batch itself decides. */
const OWN_HEADERS = new Set(['host', 'content-length', 'transfer-encoding', 'connection', 'authorization', 'x-request-id']);

const CONTINUE_ON_ERROR = /(?:^|[,;\s])(?:odata\.)?continue-on-error(?:\s*=\s*true)?\s*(?:$|[,;])/i;

export function batchHandler(o: {
  readonly services: Services;
  readonly base: string;
  readonly app: () => express.Express;
}): RequestHandler[] {
  const raw = express.raw({ type: () => true, limit: BATCH_BODY_LIMIT });
  const readBody: RequestHandler = (req, res, next) => {
    raw(req, res, (err?: unknown) => {
      if (stringProp(err, 'type') === 'entity.too.large')
        return next(new AppError('PAYLOAD_TOO_LARGE', `A batch's body is at most ${BATCH_LIMITS.bodyBytes / 1024} KiB`));
      next(err);
    });
  };
  const handle = async (req: Request, res: Response): Promise<void> => {
    const body = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const plan = parseBatch(req.get('content-type'), body);
    refuseOutside(plan, o.base);
    const continueOnError = CONTINUE_ON_ERROR.test(req.get('prefer') ?? '');
    const items = await runBatch(plan, {
      dispatch: dispatcher(o.app(), req, res),
      unitOfWork: (work) => o.services.unitOfWork(work),
      base: o.base,
      continueOnError,
      errorStyle: errorStyle((name) => req.get(name)),
    });
    if (continueOnError) res.setHeader('Preference-Applied', 'odata.continue-on-error');
    if (plan.format === 'json') {
      // The JSON batch format is OData 4.01's.
      res.setHeader('OData-Version', '4.01');
      res.status(200).type('application/json').send(jsonAnswer(items));
    } else {
      const answer = multipartAnswer(items);
      // As bytes: a string would get `; charset=utf-8` after the boundary, which clients that
      // read the boundary as the Content-Type's last parameter (@odata/client) then miss.
      res.status(200).setHeader('Content-Type', answer.contentType);
      res.send(Buffer.from(answer.body, 'utf8'));
    }
  };
  return [
    (req, res, next) => {
      if (req.method === 'POST') return next();
      res.setHeader('Allow', 'POST');
      throw new AppError('METHOD_NOT_ALLOWED', 'A batch is sent with POST');
    },
    readBody,
    handle,
  ];
}

/** Every URL that is not a `$<id>` reference must lie under the REST base: a batch holds requests of this API only. */
function refuseOutside(plan: BatchPlan, base: string): void {
  for (const item of plan.items)
    for (const r of item.kind === 'group' ? item.requests : [item.request]) {
      if (referenceOf(r.url) !== undefined) continue;
      const path = /^[a-z][a-z0-9+.-]*:\/\//i.test(r.url) ? r.url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '') : r.url;
      if (path.startsWith('/') && !path.startsWith(`${base}/`)) throw invalidBatch(`${r.url} is not a URL of this API (${base}/...)`);
    }
}

/** Sends one request of the batch through the app, as the batch's caller. */
function dispatcher(app: express.Express, outer: Request, res: Response): Dispatch {
  let n = 0;
  const outerId = res.locals.requestId;
  const handler = injectable(app);
  return async ({ method, url, headers, body }) => {
    const own: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers)) if (!OWN_HEADERS.has(name)) own[name] = value;
    const authorization = outer.get('authorization');
    if (authorization) own.authorization = authorization;
    // Who and where the caller is, as the batch was asked (rate limit, absolute links).
    for (const name of ['x-forwarded-for', 'x-forwarded-proto', 'x-forwarded-host']) {
      const value = outer.get(name);
      if (value) own[name] = value;
    }
    // An OData client's batch: its requests are an OData client's too (control information in records), unless they say otherwise.
    for (const name of ['odata-version', 'odata-maxversion']) {
      const value = outer.get(name);
      if (value && own[name] === undefined) own[name] = value;
    }
    own['x-request-id'] = `${outerId}.${++n}`;
    const answer = await inject(handler, {
      method,
      url,
      headers: own,
      ...(body ? { payload: body } : {}),
      remoteAddress: outer.socket.remoteAddress ?? '127.0.0.1',
      ...(outer.get('host') ? { authority: outer.get('host') } : {}),
    });
    return { status: answer.statusCode, headers: headersOf(answer.headers), body: answer.rawPayload } satisfies InnerResponse;
  };
}

function headersOf(h: Record<string, string | number | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(h))
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
  return out;
}
