import { isUuid } from '../../domain/common/schemas';
import { UuidList, UuidMap } from '../compact';
import { perFileSection, sectionDef, type FileSection, type Identified } from '../registry';
import { locText, type Loc, type Problems } from './problems';
import { stringProp } from '../../lib/unknown';

// What the first pass keeps of the file for the rules across records: each section's ids,
// unique keys and the references not yet resolved in the file. Not the records: a file of
// 200,000 customers keeps a few tens of MB of keys (ids as 16 bytes each in typed arrays).

/** A section's ids: index → id and id → index. */
export class Ids {
  readonly byIndex = new UuidList();
  readonly index = new UuidMap();
}

export interface PendingReference {
  readonly target: FileSection;
  readonly id: string;
  readonly at: Loc;
  readonly field: string;
}

export class FileKeys {
  readonly ids = perFileSection(() => new Ids());
  /** Per keyed section: key → index of the record that has it. */
  readonly keys = perFileSection(() => new Map<string, number>());
  /** References to ids not (yet) seen in the file. */
  pending: PendingReference[] = [];

  constructor(private readonly problems: Problems) {}

  /** A valid record: its id, its unique key, its references. */
  accept(at: Loc, record: Identified): void {
    this.claimId(at, record.id);
    this.claimKey(at, record);
    for (const r of sectionDef(at.section).references) {
      const id = record[r.field];
      if (typeof id === 'string' && !this.ids[r.target].index.has(id)) this.pending.push({ target: r.target, id, at, field: r.field });
    }
  }

  /**
   * An invalid record still claims its id and its unique key, so that records pointing at
   * it are not also reported, and a second record with its key is.
   */
  acceptInvalid(at: Loc, value: unknown): void {
    if (value === null || typeof value !== 'object') return;
    const id = stringProp(value, 'id');
    if (id !== undefined && isUuid(id)) this.claimId(at, id.toLowerCase());
    this.claimKey(at, value);
  }

  private claimId(at: Loc, id: string): void {
    const ids = this.ids[at.section];
    const other = ids.index.get(id);
    if (other !== undefined) {
      this.problems.add(at, 'id', `duplicate id ${id}: ${at.section}[${other}] has it too`);
      return;
    }
    ids.index.set(id, at.index);
    ids.byIndex.set(at.index, id);
  }

  private claimKey(at: Loc, record: object): void {
    const unique = sectionDef(at.section).unique;
    const text = unique?.text(record);
    if (!unique || text === undefined) return;
    const keys = this.keys[at.section];
    const key = unique.key(text);
    const other = keys.get(key);
    if (other !== undefined) this.problems.add(at, unique.field, unique.inFile(text, locText({ ...at, index: other })));
    else keys.set(key, at.index);
  }
}
