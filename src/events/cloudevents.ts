import type { OutgoingMessage } from './jetstream';

// A change-log entry as a CloudEvents 1.0 event in JSON (structured mode), the message the
// relay publishes (docs/events.md has an example).

/** What the event's attributes are made of; `data` is the entry as the API shows it. */
export interface EventEntry {
  readonly id: string;
  readonly resource: string;
  readonly recordId: string;
  readonly operation: string;
  readonly occurredAt: Date;
}

export interface CloudEvent {
  readonly specversion: '1.0';
  readonly id: string;
  readonly source: string;
  readonly type: string;
  readonly subject: string;
  readonly time: string;
  readonly datacontenttype: 'application/json';
  readonly data: unknown;
}

/** `billing.<resource>.<operation>`, e.g. billing.payment-source.updated. */
export const eventType = (e: Pick<EventEntry, 'resource' | 'operation'>): string => `billing.${e.resource}.${e.operation}`;

/** The NATS subject of an entry: `<prefix>.<resource>.<operation>`, so consumers filter by either. */
export const subjectOf = (prefix: string, e: Pick<EventEntry, 'resource' | 'operation'>): string =>
  `${prefix}.${e.resource}.${e.operation}`;

export function toCloudEvent(e: EventEntry, source: string, data: unknown): CloudEvent {
  return {
    specversion: '1.0',
    id: e.id,
    source,
    type: eventType(e),
    subject: e.recordId,
    time: e.occurredAt.toISOString(),
    datacontenttype: 'application/json',
    data,
  };
}

/** The stream message of an entry; `stringify` writes exact decimals (src/http/json.ts's writer). */
export function toMessage(
  e: EventEntry,
  o: { source: string; subjectPrefix: string; data: unknown; stringify: (v: unknown) => string },
): OutgoingMessage {
  return { subject: subjectOf(o.subjectPrefix, e), msgId: e.id, body: o.stringify(toCloudEvent(e, o.source, o.data)) };
}
