import { LOGGED_RESOURCES } from '../../src/domain/change-log/fields';
import { ALL_RESOURCES } from '../../src/domain/resources';

// The change log names each resource as its declaration does (src/domain/<resource>/resource.ts),
// with the same field catalogue: an entry's `resource` and `changes` keys are the API's.
it('logs every declared resource under its declared name and fields', () => {
  expect(Object.keys(LOGGED_RESOURCES).sort()).toEqual(ALL_RESOURCES.map((r) => r.name).sort());
  for (const r of ALL_RESOURCES) expect([r.name, LOGGED_RESOURCES[r.name]]).toEqual([r.name, r.fields]);
});
