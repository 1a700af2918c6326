import type { RequestHandler, Router } from 'express';
import { npmFile, projectFile, toolAssets, toolPageHandler, type ToolPage } from './serve';
import { EXAMPLE_OPERATION } from './example';

// GraphiQL at /graphiql outside production, from the graphiql, react and react-dom packages
// (graphiql 4 ships a UMD build that expects React 18 as globals) and a small start script of
// our own (./ide/start.js): no CDN, so it works offline (the Sandbox page at /graphql needs
// Apollo's CDN and sends here when it cannot reach it).

export const GRAPHIQL_PATH = '/graphiql';

const attribute = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export const GRAPHIQL_PAGE: ToolPage = {
  assetBase: '/graphql/ide',
  assets: {
    'react.js': npmFile('react', 'umd/react.production.min.js'),
    'react-dom.js': npmFile('react-dom', 'umd/react-dom.production.min.js'),
    'graphiql.js': npmFile('graphiql', 'graphiql.min.js'),
    'graphiql.css': npmFile('graphiql', 'graphiql.min.css'),
    'start.js': projectFile('src', 'pages', 'graphiql', 'start.js'),
    'page.css': projectFile('src', 'pages', 'graphiql', 'page.css'),
  },
  title: 'GraphiQL · Billing reference data',
  load: ['graphiql.css', 'page.css', 'react.js', 'react-dom.js', 'graphiql.js', 'start.js'],
  body: [
    '<form id="token-bar" autocomplete="off">',
    '<label for="token">Bearer token</label>',
    '<input id="token" name="token" type="password" placeholder="paste the output of: npm run --silent token" spellcheck="false">',
    '<button type="submit">Use token</button>',
    '<span id="token-state" role="status"></span>',
    '</form>',
    `<div id="graphiql" data-example="${attribute(EXAMPLE_OPERATION)}">Loading GraphiQL…</div>`,
  ].join('\n'),
  inlineStyles: true,
};

/** The assets, and the page (for GET /graphiql). */
export function graphiql(): { assets: Router; page: RequestHandler } {
  const send = toolPageHandler(GRAPHIQL_PAGE);
  return { assets: toolAssets(GRAPHIQL_PAGE), page: (_req, res) => send(res) };
}
