import { JsonSectionScanner, JsonShapeError } from '../../src/import/json-sections';

// The streaming reader of import files: the same records whatever the chunk boundaries.

interface Seen {
  sections: [string, number][];
  records: [string, number, unknown][];
  ends: [string, number][];
  notArrays: [string, unknown][];
}

function scan(text: string, chunk: number, wants?: (s: string) => boolean): Seen {
  const seen: Seen = { sections: [], records: [], ends: [], notArrays: [] };
  const s = new JsonSectionScanner({
    section: (name, seq) => seen.sections.push([name, seq]),
    record: (section, index, value) => seen.records.push([section, index, value]),
    sectionEnd: (name, count) => seen.ends.push([name, count]),
    notArray: (name, _seq, value) => seen.notArrays.push([name, value]),
    ...(wants ? { wants } : {}),
  });
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i += chunk) s.push(bytes.subarray(i, i + chunk));
  s.end();
  return seen;
}

const doc = {
  accounts: [
    { id: 'a', name: 'Kasse "Süd" [alt] {x}', nested: { deep: [1, 2, { z: '\\' }] } },
    { id: 'b', name: 'emoji 😀 and \u00e9\n' },
  ],
  empty: [],
  customers: [1, 'two', null, true, -3.5e2, [[]], {}],
  odd: { not: 'an array' },
};

describe('JsonSectionScanner', () => {
  const text = JSON.stringify(doc, null, 2);
  const expected = scan(text, text.length + 1);

  it('reads sections and records', () => {
    expect(expected.sections).toEqual([
      ['accounts', 0],
      ['empty', 1],
      ['customers', 2],
    ]);
    expect(expected.records.filter((r) => r[0] === 'accounts').map((r) => r[2])).toEqual(doc.accounts);
    expect(expected.records.filter((r) => r[0] === 'customers').map((r) => r[2])).toEqual(doc.customers);
    expect(expected.ends).toEqual([
      ['accounts', 2],
      ['empty', 0],
      ['customers', 7],
    ]);
    expect(expected.notArrays).toEqual([['odd', doc.odd]]);
  });

  it.each([1, 2, 3, 7, 64])('gives the same result in chunks of %i bytes', (n) => {
    expect(scan(text, n)).toEqual(expected);
    expect(scan(JSON.stringify(doc), n)).toEqual(scan(JSON.stringify(doc), 10_000));
  });

  it('skips the records of sections not wanted, counting them', () => {
    const seen = scan(text, 5, (s) => s !== 'customers');
    expect(seen.records.some((r) => r[0] === 'customers')).toBe(false);
    expect(seen.ends).toContainEqual(['customers', 7]);
  });

  it('accepts a byte order mark and an empty object', () => {
    expect(scan('\ufeff{"accounts": []}', 1).ends).toEqual([['accounts', 0]]);
    expect(scan('{}', 1).sections).toEqual([]);
  });

  it.each([
    ['', /empty/],
    ['[]', /must hold a JSON object/],
    ['{"a": [1,]}', /expected a record after ','/],
    ['{"a": [1 2]}', /expected ',' or ']'/],
    ['{"a": [{"x": 1,}]}', /a\[0\] is not valid JSON/],
    ['{"a": [] "b": []}', /expected ',' or '}'/],
    ['{"a": []} x', /after the end/],
    ['{"a": [', /unexpected end of file/],
    ['{"a": [], "a": []}', /appears twice/],
    ['{a: []}', /section name in double quotes/],
  ])('rejects %j', (text, message) => {
    expect(() => scan(text, 3)).toThrow(JsonShapeError);
    expect(() => scan(text, 3)).toThrow(message);
  });

  it('names the line of a fault', () => {
    expect(() => scan('{\n"a": [\n1,\n{"x": }\n]}', 4)).toThrow(/line 4: a\[1\] is not valid JSON/);
  });
});
