import type { z } from 'zod';
import type { FileSection } from '../registry';
import type { ImportProblem } from '../types';

// The problems found in a file, each with its position, reported in file order.

/** Where a record is: section, index, and the address index inside a customer (-1: none). */
export interface Loc {
  readonly section: FileSection;
  readonly index: number;
  readonly sub: number;
}

export const loc = (section: FileSection, index: number, sub = -1): Loc => ({ section, index, sub });

export function locText(l: Loc): string {
  return `${l.section}[${l.index}]${l.sub >= 0 ? `.addresses[${l.sub}]` : ''}`;
}

export function preview(v: unknown): string {
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}

const IDENT = /^[A-Za-z_$][\w$]*$/;

function pathText(path: readonly PropertyKey[]): string {
  let s = '';
  for (const p of path) {
    if (typeof p === 'number') s += `[${p}]`;
    else if (typeof p === 'string' && IDENT.test(p)) s += `.${p}`;
    else s += `[${JSON.stringify(String(p))}]`;
  }
  return s.replace(/^\./, '');
}

function valueAt(raw: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = raw;
  for (const p of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = Reflect.get(v, p);
  }
  return v;
}

interface Entry {
  readonly seq: number;
  readonly index: number;
  readonly sub: number;
  readonly n: number;
  readonly problem: ImportProblem;
}

export class Problems {
  private readonly entries: Entry[] = [];
  private readonly seqOf = new Map<string, number>();

  /** A top-level key of the file starts: its place orders the problems of its records. */
  section(name: string, seq: number): void {
    this.seqOf.set(name, seq);
  }

  add(l: Loc, field: string, message: string): void {
    this.entries.push({
      seq: this.seqOf.get(l.section) ?? 0,
      index: l.index,
      sub: l.sub,
      n: this.entries.length,
      problem: { position: `${locText(l)}${field ? `.${field}` : ''}`, message },
    });
  }

  /** A problem with a whole top-level key. */
  addTop(name: string, message: string): void {
    this.entries.push({ seq: this.seqOf.get(name) ?? 0, index: -1, sub: -1, n: this.entries.length, problem: { position: name, message } });
  }

  /** A record's schema issues, each at the field it concerns (addresses at their own position). */
  addSchemaIssues(l: Loc, issues: readonly z.core.$ZodIssue[], raw: unknown): void {
    for (const issue of issues) {
      let at = l;
      let path = issue.path;
      if (l.section === 'customers' && path[0] === 'addresses' && typeof path[1] === 'number') {
        at = { ...l, sub: path[1] };
        path = path.slice(2);
        if (path.length === 0 && issue.code !== 'unrecognized_keys') {
          this.add(at, '', issue.message);
          continue;
        }
      }
      const field = pathText(path);
      const value = valueAt(raw, issue.path);
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) this.add(at, pathText([...path, key]), 'is not a field of this record');
      } else if (issue.code === 'invalid_type' && value === undefined && issue.path.length > 0) {
        this.add(at, field, 'is required');
      } else if (issue.code === 'invalid_value' || issue.code === 'invalid_format') {
        this.add(at, field, `${issue.message} (got ${preview(value)})`);
      } else {
        this.add(at, field, issue.message);
      }
    }
  }

  get size(): number {
    return this.entries.length;
  }

  /** In file order: section, record, address, then the order found. */
  list(): ImportProblem[] {
    return [...this.entries].sort((a, b) => a.seq - b.seq || a.index - b.index || a.sub - b.sub || a.n - b.n).map((e) => e.problem);
  }
}
