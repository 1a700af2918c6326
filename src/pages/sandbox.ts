import { createHash } from 'node:crypto';
import type { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerPluginLandingPageLocalDefault } from '@apollo/server/plugin/landingPage/default';
import type { Response } from 'express';
import { projectFile, type ToolAssets } from './serve';
import { EXAMPLE_OPERATION } from './example';
import { GRAPHIQL_PATH } from './graphiql';

// Apollo Sandbox at /graphql for a browser outside production: Apollo Server's local landing
// page (the Sandbox embed, loaded from Apollo's CDN into an iframe from Apollo's site), pointed at
// the page's own address, opened on an example operation. Around it: a bar saying how to get a
// token and where it goes (the page never hands one out: a development server listens on every
// interface), and, when Apollo's servers cannot be reached, a notice with the bundled GraphiQL
// one click away (./sandbox/landing.js).
//
// The page has its own Content-Security-Policy, the header (Apollo's <meta> policy is taken out
// so that one policy applies): Apollo's inline script and styles are admitted by their hashes
// (their text is the same on every render; only the nonce attribute changes), the embed's
// script and frame by their origins, requests to this service only.

/** Where the embed's script comes from, and the origin of the iframe it opens. */
export const SANDBOX_SCRIPT_ORIGIN = 'https://embeddable-sandbox.cdn.apollographql.com';
export const SANDBOX_FRAME_ORIGIN = 'https://sandbox.embed.apollographql.com';

/**
 * The style attribute the embed's script sets on its iframe (setAttribute: subject to the
 * policy, unlike the CSSOM); Apollo's inline `iframe` rule sizes it as well.
 */
const EMBED_IFRAME_STYLE = 'height: 100%; width: 100%; border: none;';

export const SANDBOX_ASSETS: ToolAssets = {
  assetBase: '/graphql/sandbox',
  assets: {
    'landing.js': projectFile('src', 'pages', 'sandbox', 'landing.js'),
    'landing.css': projectFile('src', 'pages', 'sandbox', 'landing.css'),
  },
};

const TOKEN_PLACEHOLDER = 'Bearer PASTE-THE-OUTPUT-OF-npm-run--silent-token';

const DOCUMENT = [
  '# Every request needs a token: run `npm run --silent token` in the project folder and put',
  '# it into the Authorization header (Headers, below): Authorization: Bearer <the token>',
  "# (it has every scope, billing.pii included: customers' names, e-mails and addresses need it)",
  EXAMPLE_OPERATION,
].join('\n');

const HEAD = [
  '<title>Apollo Sandbox · Billing reference data</title>',
  // An icon of the page's own, so the embed adds none from Apollo's CDN.
  '<link rel="icon" href="data:,">',
  `<link rel="stylesheet" href="${SANDBOX_ASSETS.assetBase}/landing.css">`,
  `<script src="${SANDBOX_ASSETS.assetBase}/landing.js"></script>`,
].join('\n');

const BODY = [
  '<header id="sandbox-bar">',
  '<strong>Apollo Sandbox</strong>',
  '<span>Every request needs a token: run <code>npm run --silent token</code> in the project folder, then set the header',
  '<code>Authorization: Bearer &lt;token&gt;</code> in Sandbox (Headers, below the operation; the connection settings',
  'beside the endpoint have shared headers for every request).</span>',
  `<a href="${GRAPHIQL_PATH}">GraphiQL (bundled, works offline)</a>`,
  '</header>',
  '<section id="sandbox-offline" role="alert" hidden>',
  '<h1>Apollo Sandbox could not be loaded</h1>',
  `<p>It comes from Apollo's servers (<code>${new URL(SANDBOX_SCRIPT_ORIGIN).host}</code>, <code>${new URL(SANDBOX_FRAME_ORIGIN).host}</code>),`,
  'which this browser cannot reach: the machine is offline, or the network blocks them.</p>',
  '<p>The service bundles GraphiQL, which needs nothing from the internet:</p>',
  `<p><a id="open-graphiql" href="${GRAPHIQL_PATH}">Open GraphiQL</a></p>`,
  '<p>Its token bar takes the output of <code>npm run --silent token</code>.</p>',
  '</section>',
].join('\n');

/** Replaces the one match of pattern; an Apollo page that no longer has it stops the start-up. */
function replaceOnce(html: string, pattern: RegExp, replacement: string, what: string): string {
  const matches = html.match(new RegExp(pattern.source, `${pattern.flags.replace('g', '')}g`))?.length ?? 0;
  if (matches !== 1) throw new Error(`Apollo's landing page changed: expected one ${what}, found ${matches}`);
  return html.replace(pattern, replacement);
}

/** Apollo's page with ours around it: no <meta> policy, no links to Apollo's CDN in its head. */
function adapt(html: string): string {
  let page = replaceOnce(html, /<meta http-equiv="Content-Security-Policy"[^>]*>/, '', 'Content-Security-Policy meta element');
  page = page.replace(/<link\b[^>]*>/g, '').replace(/<title>[^<]*<\/title>/, '');
  page = replaceOnce(page, /<\/head>/, `${HEAD}\n</head>`, '</head>');
  return replaceOnce(page, /<body>/, `<body>\n${BODY}`, '<body>');
}

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The page's policy, from one render of it. */
function policyFor(page: string): string {
  const inline = (tag: 'script' | 'style') =>
    [...page.matchAll(new RegExp(`<${tag}\\b(?![^>]*\\bsrc=)[^>]*>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => hash(m[1]!));
  const external = [...page.matchAll(/<script\b[^>]*\bsrc="(https?:[^"]+)"/g)].map((m) => new URL(m[1]!).origin);
  if (external.length !== 1 || external[0] !== SANDBOX_SCRIPT_ORIGIN) {
    throw new Error(
      `Apollo's landing page changed: expected the embed's script from ${SANDBOX_SCRIPT_ORIGIN}, found ${external.join(', ') || 'none'}`,
    );
  }
  const scripts = inline('script');
  if (scripts.length === 0) throw new Error("Apollo's landing page changed: no inline start script");
  return [
    "default-src 'none'",
    ['script-src', "'self'", SANDBOX_SCRIPT_ORIGIN, ...new Set(scripts)].join(' '),
    ['style-src', "'self'", ...new Set(inline('style'))].join(' '),
    `style-src-attr 'unsafe-hashes' ${hash(EMBED_IFRAME_STYLE)}`,
    `frame-src ${SANDBOX_FRAME_ORIGIN}`,
    // The embed sends the operations (and Sandbox's introspection) from this page, to this service.
    "connect-src 'self'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export interface SandboxLandingPage {
  readonly plugin: ApolloServerPlugin;
  /** Sets the page's headers on a response to a browser's GET (Apollo writes the page itself). */
  headers(res: Response): void;
}

export function sandboxLandingPage(): SandboxLandingPage {
  const apollo = ApolloServerPluginLandingPageLocalDefault({
    embed: { runTelemetry: false, endpointIsEditable: false },
    document: DOCUMENT,
    headers: { Authorization: TOKEN_PLACEHOLDER },
    includeCookies: false,
  });
  let csp: string | undefined;
  const plugin: ApolloServerPlugin = {
    async serverWillStart(context) {
      const listener = await apollo.serverWillStart?.(context);
      if (!listener?.renderLandingPage) throw new Error("Apollo's local landing page plugin renders no page");
      const landing = await listener.renderLandingPage();
      const html = async () => adapt(typeof landing.html === 'string' ? landing.html : await landing.html());
      // Rendered once now: an Apollo page this code does not fit stops the start-up, not a request.
      csp = policyFor(await html());
      return { renderLandingPage: () => Promise.resolve({ html }) };
    },
  };
  return {
    plugin,
    headers(res) {
      if (!csp) throw new Error('The Sandbox landing page is used before the GraphQL server started');
      res.setHeader('Content-Security-Policy', csp);
      res.setHeader('Cache-Control', 'no-cache');
    },
  };
}
