// The table of every error code a client can meet, written from the catalogue (./catalogue.ts)
// into docs/service.md between two markers by `npm run docs:errors`;
// test/tooling/error-table.test.ts fails when the document's table is not this one.

import { ERRORS, GRAPHQL_PROTOCOL_ERRORS } from './catalogue';

export const TABLE_START = '<!-- error codes: generated from src/errors/catalogue.ts by `npm run docs:errors` -->';
export const TABLE_END = '<!-- end of error codes -->';

const cell = (text: string): string => text.replace(/\|/g, '\\|');

/** Every code: the catalogue's (both doors), then the GraphQL-only codes of Apollo's layer. */
export function errorTable(): string {
  const rows = [
    ...Object.entries(ERRORS).map(([code, e]) => `| ${code} | ${e.status} | ${cell(e.when)} |`),
    ...Object.entries(GRAPHQL_PROTOCOL_ERRORS).map(
      ([code, e]) => `| ${code} | ${e.status} | GraphQL only (Apollo Server's code): ${cell(e.when)} |`,
    ),
  ];
  return ['| code | HTTP | when |', '|---|---|---|', ...rows].join('\n');
}

/** The markdown with the text between the markers replaced by the current table. */
export function withErrorTable(markdown: string): string {
  const start = markdown.indexOf(TABLE_START);
  const end = markdown.indexOf(TABLE_END);
  if (start === -1 || end < start) throw new Error('the error-table markers are missing');
  return `${markdown.slice(0, start + TABLE_START.length)}\n${errorTable()}\n${markdown.slice(end)}`;
}
