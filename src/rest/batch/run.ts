import { AppError } from '../../errors/catalogue';
import { problemBody, type ErrorStyle } from '../../http/problem';
import { referenceOf, type BatchItem, type BatchPlan, type BatchRequest } from './parse';

// Runs a batch's plan in order. Each request goes through the app as a request of its own
// (`dispatch`): the same routes, scope checks, limits and errors as when sent directly. A
// group (a change set, an atomicity group) is one unit of work of the services: its requests
// run inside it, and the first that fails rolls the unit back, so none of its writes is kept.

/** What the app answered one request. */
export interface InnerResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** One request sent through the app: method, an absolute path under the REST base, headers, body. */
export type Dispatch = (r: {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}) => Promise<InnerResponse>;

export interface Outcome {
  readonly request: BatchRequest;
  readonly response: InnerResponse;
}

export type ItemOutcome =
  | { readonly kind: 'request'; readonly outcome: Outcome }
  /** `failed`: the index of the request that failed; every write of the group was rolled back. */
  | { readonly kind: 'group'; readonly id: string; readonly outcomes: readonly Outcome[]; readonly failed: number | undefined };

export interface RunOptions {
  readonly dispatch: Dispatch;
  readonly unitOfWork: <T>(work: () => Promise<T>) => Promise<T>;
  /** The REST base the URLs are relative to (`/api/v1`). */
  readonly base: string;
  /** `Prefer: odata.continue-on-error`: go on after a failed request or group (else stop there). */
  readonly continueOnError: boolean;
  /** How synthetic errors (requests not run, writes rolled back) are written. */
  readonly errorStyle: ErrorStyle;
}

const failedStatus = (r: InnerResponse): boolean => r.status >= 400;

class GroupFailed extends Error {
  constructor(readonly outcomes: Outcome[]) {
    super('the group failed');
  }
}

export async function runBatch(plan: BatchPlan, o: RunOptions): Promise<ItemOutcome[]> {
  /** The URL of what each succeeded request wrote or read, by id, for `$<id>` references. */
  const urls = new Map<string, string>();
  /** Requests and groups that failed (a request depending on one is not run). */
  const failed = new Set<string>();
  const out: ItemOutcome[] = [];

  const synthetic = (code: 'FAILED_DEPENDENCY' | 'ROLLED_BACK', detail: string, url: string): InnerResponse => {
    const e = new AppError(code, detail);
    // The path the request names, as the app's own errors give it.
    const path = (resolve(url, o.base, () => undefined) ?? url).split('?')[0];
    const { type, text } = problemBody(e, path, o.errorStyle);
    return { status: e.status, headers: { 'content-type': `${type}; charset=utf-8`, 'odata-version': '4.0' }, body: Buffer.from(text) };
  };

  const runOne = async (r: BatchRequest, local: Map<string, string>): Promise<Outcome> => {
    const broken = r.dependsOn.find((d) => failed.has(d));
    if (broken !== undefined) return { request: r, response: synthetic('FAILED_DEPENDENCY', `Not run: ${broken} failed`, r.url) };
    const url = resolve(r.url, o.base, (id) => local.get(id) ?? urls.get(id));
    if (url === undefined)
      return { request: r, response: synthetic('FAILED_DEPENDENCY', `Not run: ${r.url} refers to a request that wrote nothing`, r.url) };
    const response = await o.dispatch({ method: r.method, url, headers: { ...r.headers }, body: r.body });
    if (r.id !== undefined && !failedStatus(response)) local.set(r.id, entityUrl(r.method, url, response));
    return { request: r, response };
  };

  for (const item of plan.items) {
    const result = item.kind === 'request' ? await runRequest(item) : await runGroup(item);
    out.push(result);
    const bad = result.kind === 'request' ? failedStatus(result.outcome.response) : result.failed !== undefined;
    if (bad && !o.continueOnError) break;
  }
  return out;

  async function runRequest(item: Extract<BatchItem, { kind: 'request' }>): Promise<ItemOutcome> {
    const local = new Map<string, string>();
    const outcome = await runOne(item.request, local);
    for (const [id, url] of local) urls.set(id, url);
    if (failedStatus(outcome.response) && item.request.id !== undefined) failed.add(item.request.id);
    return { kind: 'request', outcome };
  }

  async function runGroup(item: Extract<BatchItem, { kind: 'group' }>): Promise<ItemOutcome> {
    // The group's URLs count only once it is kept.
    const local = new Map<string, string>();
    try {
      const outcomes = await o.unitOfWork(async () => {
        const done: Outcome[] = [];
        for (const r of item.requests) {
          const outcome = await runOne(r, local);
          done.push(outcome);
          if (failedStatus(outcome.response)) throw new GroupFailed(done);
        }
        return done;
      });
      for (const [id, url] of local) urls.set(id, url);
      return { kind: 'group', id: item.id, outcomes, failed: undefined };
    } catch (e) {
      if (!(e instanceof GroupFailed)) throw e;
      failed.add(item.id);
      for (const r of item.requests) if (r.id !== undefined) failed.add(r.id);
      const at = e.outcomes.length - 1;
      const outcomes = item.requests.map((r, i): Outcome => {
        if (i === at) return e.outcomes[i] ?? { request: r, response: synthetic('FAILED_DEPENDENCY', 'Not run', r.url) };
        if (i < at)
          return {
            request: r,
            response: synthetic('ROLLED_BACK', `Not kept: request ${e.outcomes[at]?.request.id ?? at + 1} of its group failed`, r.url),
          };
        return {
          request: r,
          response: synthetic('FAILED_DEPENDENCY', `Not run: request ${e.outcomes[at]?.request.id ?? at + 1} of its group failed`, r.url),
        };
      });
      return { kind: 'group', id: item.id, outcomes, failed: at };
    }
  }
}

/**
 * A request's URL as a path under the REST base: relative to the service root, an absolute
 * path, an absolute URL (its path), or `$<id>` for the URL of what request `<id>` wrote.
 * Undefined when the referenced request has no URL (it failed, or wrote nothing).
 */
function resolve(url: string, base: string, urlOf: (id: string) => string | undefined): string | undefined {
  const ref = referenceOf(url);
  if (ref !== undefined) {
    const target = urlOf(ref);
    return target === undefined ? undefined : target + url.slice(ref.length + 1);
  }
  if (url.startsWith('/')) return url;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/]*(\/.*)?$/i.exec(url);
  if (absolute) return absolute[1] ?? '/';
  return `${base}/${url}`;
}

/** What `$<id>` stands for: a created record's Location, else the request's own path. */
function entityUrl(method: string, url: string, response: InnerResponse): string {
  const location = response.headers.location;
  if (method === 'POST' && location) return location.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/]*/i, '');
  return url.split('?')[0] ?? url;
}
