import path from 'node:path';
import { Router, type Request, type Response } from 'express';
import { PROJECT_ROOT } from '../config/paths';

// The browser tools served outside production (GraphiQL for the GraphQL door, Swagger UI for
// the REST door): an HTML page, its scripts and stylesheets taken from installed npm packages
// or from the project, all from the service itself — nothing from a CDN, so they work offline.
// (The Apollo Sandbox page, ./sandbox.ts, is the one that loads from Apollo's CDN; its
// own scripts and stylesheet are served here too.)

/**
 * What a tool page needs and nothing more: its own scripts (no inline script, no eval),
 * images and fonts inlined as data: URLs, requests to this service only; inline style
 * elements only for a page whose UI inserts them (GraphiQL's does).
 */
export function toolPageCsp(page: Pick<ToolPage, 'inlineStyles'>): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    page.inlineStyles ? "style-src 'self' 'unsafe-inline'" : "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The absolute path of a file inside an installed npm package. */
export function npmFile(pkg: string, file: string): string {
  return path.join(path.dirname(require.resolve(`${pkg}/package.json`)), file);
}

/** The absolute path of a browser file kept in the project (beside the code that serves it). */
export const projectFile = (...parts: string[]): string => path.join(PROJECT_ROOT, ...parts);

/** Files a page loads from the service. */
export interface ToolAssets {
  /** Folder the assets are served under, e.g. `/graphql/ide`. */
  readonly assetBase: string;
  /** Served file name → absolute path on disk. */
  readonly assets: Readonly<Record<string, string>>;
}

export interface ToolPage extends ToolAssets {
  readonly title: string;
  /** Asset names, in order: `.css` become stylesheets, the others scripts. */
  readonly load: readonly string[];
  /** The body's markup before the scripts. */
  readonly body: string;
  /** Whether its UI inserts inline styles (then the CSP allows them). */
  readonly inlineStyles: boolean;
}

/** The page's HTML; every script and stylesheet is one of its own assets. */
export function toolPageHtml(page: ToolPage): string {
  const href = (name: string) => {
    if (!(name in page.assets)) throw new Error(`${page.title}: no asset named ${name}`);
    return `${page.assetBase}/${name}`;
  };
  const styles = page.load.filter((n) => n.endsWith('.css')).map((n) => `<link rel="stylesheet" href="${href(n)}">`);
  const scripts = page.load.filter((n) => !n.endsWith('.css')).map((n) => `<script src="${href(n)}"></script>`);
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${page.title}</title>`,
    ...styles,
    '</head>',
    '<body>',
    page.body,
    ...scripts,
    '</body>',
    '</html>',
  ].join('\n');
}

/** The page as a handler, with its own Content-Security-Policy (the API keeps helmet's strict one). */
export function toolPageHandler(page: ToolPage): (res: Response) => void {
  const html = toolPageHtml(page);
  const csp = toolPageCsp(page);
  return (res) => {
    res.setHeader('Content-Security-Policy', csp);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(html);
  };
}

/** Serves the page's assets under its assetBase (unknown names fall through to a 404). */
export function toolAssets(page: ToolAssets): Router {
  const r = Router();
  r.get(`${page.assetBase}/:name`, (req: Request<{ name: string }>, res, next) => {
    const file = Object.hasOwn(page.assets, req.params.name) ? page.assets[req.params.name] : undefined;
    if (!file) return next();
    res.sendFile(file, { maxAge: '1h', dotfiles: 'deny' }, (err) => {
      if (err) next(err);
    });
  });
  return r;
}

/** Whether a GET comes from a browser navigating to the page (it prefers HTML over JSON). */
export const wantsHtml = (req: Request): boolean =>
  req.method === 'GET' && req.accepts(['application/json', 'application/graphql-response+json', 'text/html']) === 'text/html';
