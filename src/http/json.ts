import Decimal from 'decimal.js';

// JSON with exact decimals. Money and rates leave the service as JSON numbers written
// from their decimal text ("1234.5000" → 1234.5), never through a JavaScript float.
// JSON.stringify cannot emit raw number text on Node 20, so a decimal is first written
// as a marked string and the marks are removed afterwards. The mark starts with NUL,
// which no stored string can contain (PostgreSQL text refuses it, validation too).

const MARK = '\u0000dec:';
const MARKED = /"\\u0000dec:(-?\d+(?:\.\d+)?)"/g;

function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  const raw = this[key];
  if (raw !== null && typeof raw === 'object' && Decimal.isDecimal(raw)) {
    return MARK + (raw as Decimal).toFixed();
  }
  return value;
}

export function stringifyJson(value: unknown): string {
  return JSON.stringify(value, replacer).replace(MARKED, '$1');
}
