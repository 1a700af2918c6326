import { personalFieldsOf } from '../../query/fields';
import type { ChangeEntry } from './service';
import { LOGGED_RESOURCES } from './fields';

/**
 * An entry as a reader without the personal-data scope sees it: the personal fields' old and
 * new values removed (src/query/fields.ts `personal`), their names listed in `redacted`. An
 * entry that changed none is given back as it is.
 */
export function withoutPersonalData(entry: ChangeEntry): ChangeEntry {
  const personal = personalFieldsOf(LOGGED_RESOURCES[entry.resource] ?? {});
  if (personal.size === 0) return entry;
  const redacted = Object.keys(entry.changes).filter((f) => personal.has(f));
  if (redacted.length === 0) return entry;
  const changes = Object.fromEntries(Object.entries(entry.changes).filter(([f]) => !personal.has(f)));
  return { ...entry, changes, redacted };
}

/** The entries as the reader may see them: redacted when it lacks the personal-data scope (false), whole otherwise (absent: the service's own reads). */
export const entriesFor = (personalData: boolean | undefined, entries: ChangeEntry[]): ChangeEntry[] =>
  personalData === false ? entries.map(withoutPersonalData) : entries;
