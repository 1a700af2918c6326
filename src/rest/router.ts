import { Router, type NextFunction, type Request, type Response } from 'express';
import { requireScope, SCOPES } from '../auth/principal';
import { RESOURCES, type ResourceModel } from '../domain/resources';
import type { Services } from '../domain/services';
import { AppError, invalidQuery, validationFailed } from '../errors/catalogue';
import { rawQuery, serviceRoot } from './odata/list';
import { metadataJson, metadataXml, serviceDocument } from './odata/metadata';
import { CHANGES_SET, RESOURCE_SETS, entitySetOf } from './odata/model';
import { formatOf, optionName, queryPairs } from './odata/options';
import { keyOf } from './odata/key';
import { sendJson } from './respond';
import { addressRoutes } from './routes/addresses';
import { changeRoutes, historyRoutes } from './routes/changes';
import { articlePriceRoutes, readOnlyRoutes, type Collection } from './routes/read-only';
import { paymentWrites } from './routes/payments';
import { paymentSourceWrites } from './routes/payment-sources';
import { quoteRoutes } from './routes/quotes';
import { maintainedWrites, refuseOtherMethods } from './routes/maintain';
import { methodsOf } from './writable';

// Every entity set of the declarations gets GET collection, `/$count` and GET one; these
// add to or replace that default.
/** The service a collection's GETs read, when it is not the registry's (REST customers carry their addresses). */
const READS: Partial<Record<ResourceModel, (s: Services) => Collection<{ id: string }>>> = {
  Customer: (s) => s.customers.withAddresses,
};
/** Writes on a collection's routes other than the common write path's (billing.write; their methods: routes/maintain.ts methodsOf). */
const WRITES: Partial<Record<ResourceModel, (r: Router, s: Services) => void>> = {
  PaymentSource: paymentSourceWrites,
  Payment: paymentWrites,
};

/** The REST door under /api/v1 (authenticated by the app before it gets here). */
declare module 'express-serve-static-core' {
  interface Locals {
    /** The alternate key of a `PUT /customers(debtorNumber='…')`, whose record is replaced or created. */
    alternateKey?: string;
  }
}

export function restRouter(s: Services): Router {
  const r = Router();
  r.use(odataPaths(s));
  r.get('/', (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    sendJson(res, 200, serviceDocument(serviceRoot(req, res)));
  });
  r.get('/\\$metadata', (req, res) => {
    requireScope(res.locals.principal, SCOPES.read);
    if (metadataFormat(req) === 'json') sendJson(res, 200, metadataJson);
    else res.status(200).type('application/xml').send(metadataXml);
  });
  r.use(historyRoutes(s));
  r.use(addressRoutes(s));
  r.use(`/${CHANGES_SET.path}`, changeRoutes(s));
  for (const set of RESOURCE_SETS) {
    const routes = readOnlyRoutes(READS[set.type]?.(s) ?? s[RESOURCES[set.type].plural], set);
    // Reference data whose folder has a writes.ts is written through the common write path.
    const own = WRITES[set.type];
    const maintained = s.writers[set.type];
    if (own) own(routes, s);
    else if (maintained) maintainedWrites(maintained)(routes);
    refuseOtherMethods(routes, methodsOf(set.type));
    r.use(`/${set.path}`, routes);
  }
  r.use('/article-prices', articlePriceRoutes(s));
  r.use('/quotes', quoteRoutes(s));
  r.use(() => {
    throw new AppError('NOT_FOUND', 'No such resource path');
  });
  return r;
}

const KEYED = /^\/([^/()]+)(?:\(([^)]*)\))?(\/.*)?$/;

/**
 * OData's ways of addressing what the routes serve under one path: a set by its metadata
 * name (`/PaymentSources`) and a record by its key in parentheses (`/payment-sources(<id>)`,
 * `('<id>')` or `(id=<id>)`) are rewritten to `/payment-sources/<id>` before routing. A
 * record by its alternate key (`/customers(debtorNumber='10000001')`, `/articles(code='…')`)
 * is rewritten to its id; a PUT of the record itself goes to the upsert by that key.
 */
function odataPaths(s: Services) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    res.locals.serviceBase = req.baseUrl;
    const q = req.url.indexOf('?');
    const [path, query] = q < 0 ? [req.url, ''] : [req.url.slice(0, q), req.url.slice(q)];
    const m = KEYED.exec(path);
    const set = m ? entitySetOf(m[1] ?? '') : undefined;
    if (!m || !set) return next();
    let rest = m[3] ?? '';
    if (m[2] !== undefined) {
      const key = keyOf(m[2]);
      let id = key.value;
      if (key.name !== undefined && key.name !== 'id') {
        const writer = set.type === 'Change' ? undefined : s.writers[set.type];
        const field = writer?.alternateKey?.field;
        if (!writer || key.name !== field)
          throw validationFailed([
            { field: key.name, message: `is not a key of ${set.path} (${['id', ...(field ? [field] : [])].join(', ')})` },
          ]);
        requireScope(res.locals.principal, SCOPES.read);
        if (req.method === 'PUT' && rest === '') res.locals.alternateKey = key.value;
        else id = (await writer.idByKey(key.value)) ?? '';
        if (id === '') throw new AppError('NOT_FOUND', `No ${writer.label} with ${field} ${key.value}`);
      }
      rest = `/${encodeURIComponent(id)}${rest}`;
    }
    req.url = `/${set.path}${rest}${query}`;
    next();
  };
}

/** `$format=json|xml` decides; otherwise JSON when Accept names JSON and not XML (XML is the default). */
function metadataFormat(req: Request): 'json' | 'xml' {
  const format = queryPairs(rawQuery(req)).find(([name]) => optionName(name) === '$format')?.[1];
  if (format !== undefined) {
    const named = formatOf(format);
    if (named === undefined) throw invalidQuery('$format', "the metadata is available as 'xml' (the default) or 'json'", 0);
    return named;
  }
  const accept = req.get('accept') ?? '';
  return /application\/json/i.test(accept) && !/application\/xml/i.test(accept) ? 'json' : 'xml';
}
