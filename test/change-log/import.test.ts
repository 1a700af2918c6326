import { NIL_UUID } from '../../src/domain/common/schemas';
import { stringifyJson } from '../../src/http/json';
import { importReferenceData } from '../../src/import';
import { IMPORT_SECTIONS } from '../../src/import/registry';
import { useTestServices } from '../support/database';
import { demo, writeFile } from '../import/helpers';

// The import appends one entry per record it inserts or updates, none for unchanged rows,
// all with the nil UUID as user and the run's id, field-level old and new values as the API
// writes them (decimals exact, instants ISO with Z).

const t = useTestServices();

const all = () => t.s.changeLog.changesAfter(0n, 100_000);

it('writes a created entry per inserted record, nothing for an unchanged one, an updated entry with the changed fields', async () => {
  const data = demo();
  const first = await importReferenceData(t.db, writeFile(data));
  const inserted = IMPORT_SECTIONS.reduce((n, sec) => n + first.counts[sec].inserted, 0);
  const created = await all();
  expect(created).toHaveLength(inserted);
  expect(new Set(created.map((e) => e.operation))).toEqual(new Set(['created']));
  expect(new Set(created.map((e) => e.userId))).toEqual(new Set([NIL_UUID]));
  expect(new Set(created.map((e) => e.importRunId))).toEqual(new Set([first.importRunId]));
  // Each record once, under its own resource; addresses are their own resource.
  expect(created.filter((e) => e.resource === 'address')).toHaveLength(first.counts.addresses.inserted);
  expect(created.filter((e) => e.resource === 'customer')).toHaveLength(first.counts.customers.inserted);
  const price = data.articlePrices[0]!;
  const priceEntry = created.find((e) => e.recordId === price.id)!;
  expect(priceEntry.resource).toBe('article-price');
  // As the API writes it: an exact JSON number.
  expect(stringifyJson(priceEntry.changes.amount)).toBe(`{"old":null,"new":${String(price.amount)}}`);
  expect(priceEntry.changes.validFrom).toEqual({ old: null, new: new Date(String(price.validFrom)).toISOString() });
  expect(priceEntry.changes).not.toHaveProperty('id');

  // The same file again: nothing changes, nothing is logged.
  await importReferenceData(t.db, writeFile(data));
  expect(await all()).toHaveLength(inserted);

  // One customer's e-mail, one address's city and one price's amount change.
  const customer = data.customers[0]!;
  const oldEmail = customer.email ?? null;
  customer.email = 'changed@example.org';
  const address = customer.addresses![0]!;
  const oldCity = address.city;
  address.city = 'Neustadt';
  const oldAmount = String(price.amount);
  price.amount = 12345678901.2345;
  const third = await importReferenceData(t.db, writeFile(data));
  const updates = (await all()).slice(inserted);
  expect(updates.map((e) => [e.resource, e.recordId, e.operation]).sort()).toEqual(
    [
      ['address', address.id, 'updated'],
      ['article-price', price.id, 'updated'],
      ['customer', customer.id, 'updated'],
    ].sort(),
  );
  expect(updates.every((e) => e.importRunId === third.importRunId)).toBe(true);
  const byResource = Object.fromEntries(updates.map((e) => [e.resource, e.changes]));
  expect(byResource.customer).toEqual({ email: { old: oldEmail, new: 'changed@example.org' } });
  expect(byResource.address).toEqual({ city: { old: oldCity, new: 'Neustadt' } });
  expect(stringifyJson(byResource['article-price'])).toBe(`{"amount":{"old":${oldAmount},"new":12345678901.2345}}`);
});
