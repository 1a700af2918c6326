import { jetstream, jetstreamManager, JetStreamApiCodes, JetStreamApiError, type JetStreamClient, StorageType } from '@nats-io/jetstream';
import { connect, headers, type NatsConnection } from '@nats-io/transport-node';

// The broker side of the relay: one NATS connection, the stream created when it is missing,
// and a publish that resolves only when JetStream has stored the message (its PubAck).

export interface JetStreamOptions {
  readonly url: string;
  /** Stream name (EVENTS_NATS_STREAM). */
  readonly stream: string;
  /** Subjects are `<prefix>.<resource>.<operation>`; the stream takes `<prefix>.>`. */
  readonly subjectPrefix: string;
  /** How long JetStream remembers a Nats-Msg-Id to drop a repeat (EVENTS_NATS_DUPLICATE_WINDOW_S). */
  readonly duplicateWindowSeconds: number;
}

/** One message for the stream: the entry id becomes Nats-Msg-Id. */
export interface OutgoingMessage {
  readonly subject: string;
  readonly msgId: string;
  readonly body: string;
}

/** A publish or connect that failed because of the broker (down, no stream, timed out). */
export class BrokerError extends Error {
  override readonly name = 'BrokerError';
}

const PUBLISH_TIMEOUT_MS = 5_000;

export class JetStreamBroker {
  /** The one connection (the client reconnects by itself after it is made). */
  private connection: Promise<{ nc: NatsConnection; js: JetStreamClient }> | undefined;
  /** False after a connect, a reconnect or a failed publish: the stream may be gone (a broker started without its store). */
  private streamChecked = false;
  private up = false;
  private closed = false;

  constructor(private readonly o: JetStreamOptions) {}

  /** Whether the connection is up now (for /readyz and /metrics). */
  get connected(): boolean {
    return this.up;
  }

  /**
   * Connects in the background, retrying with backoff until it succeeds, so that /readyz shows
   * the broker's state on every instance (a standby one too) and a takeover starts connected.
   */
  start(): void {
    const attempt = async (failures: number): Promise<void> => {
      if (this.closed) return;
      try {
        await this.ready();
      } catch {
        setTimeout(() => void attempt(failures + 1), Math.min(250 * 2 ** failures, 5_000)).unref();
      }
    };
    void attempt(0);
  }

  private connect(): Promise<{ nc: NatsConnection; js: JetStreamClient }> {
    this.connection ??= connect({
      servers: this.o.url,
      name: 'billing-reference-data relay',
      // Never give up: an outage of any length ends in a reconnect, not a dead relay.
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      timeout: 5_000,
      // No Error made per request to keep where it started: a failure becomes a BrokerError
      // with its message alone, and the two Errors per publish were a twentieth of what
      // the change log cost the service's thread (npm run bench:writes, profiled).
      noAsyncTraces: true,
    }).then(
      (nc) => {
        this.up = true;
        this.streamChecked = false;
        void this.watch(nc);
        return { nc, js: jetstream(nc, { timeout: PUBLISH_TIMEOUT_MS }) };
      },
      (e: unknown) => {
        this.connection = undefined;
        throw new BrokerError(`cannot connect to NATS: ${messageOf(e)}`);
      },
    );
    return this.connection;
  }

  private async ready(): Promise<JetStreamClient> {
    if (this.closed) throw new BrokerError('the broker connection is closed');
    const { nc, js } = await this.connect();
    if (!this.streamChecked) {
      await this.ensureStream(nc);
      this.streamChecked = true;
    }
    return js;
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const s of nc.status()) {
      if (s.type === 'disconnect') this.up = false;
      if (s.type === 'reconnect') {
        this.up = true;
        this.streamChecked = false;
      }
    }
    // Closed for good (only close() does that): the next ready() connects anew.
    this.up = false;
    this.connection = undefined;
  }

  private async ensureStream(nc: NatsConnection): Promise<void> {
    try {
      const jsm = await jetstreamManager(nc, { timeout: PUBLISH_TIMEOUT_MS });
      try {
        await jsm.streams.info(this.o.stream);
      } catch (e) {
        if (!(e instanceof JetStreamApiError) || e.code !== JetStreamApiCodes.StreamNotFound) throw e;
        await jsm.streams.add({
          name: this.o.stream,
          subjects: [`${this.o.subjectPrefix}.>`],
          storage: StorageType.File,
          duplicate_window: this.o.duplicateWindowSeconds * 1_000_000_000,
        });
      }
    } catch (e) {
      throw new BrokerError(`cannot set up the JetStream stream ${this.o.stream}: ${messageOf(e)}`);
    }
  }

  /**
   * Resolves once JetStream stored the message (or dropped it as a repeat of its Nats-Msg-Id).
   * With `after`, JetStream stores it only if the stream's last message is the one of that
   * Nats-Msg-Id, and refuses it otherwise (Nats-Expected-Last-Msg-Id).
   */
  async publish(m: OutgoingMessage, after?: string): Promise<void> {
    const js = await this.ready();
    const h = headers();
    // CloudEvents' NATS binding, structured mode: the whole event is the JSON body.
    h.set('Content-Type', 'application/cloudevents+json; charset=utf-8');
    try {
      await js.publish(m.subject, m.body, {
        msgID: m.msgId,
        headers: h,
        timeout: PUBLISH_TIMEOUT_MS,
        ...(after === undefined ? {} : { expect: { lastMsgID: after } }),
      });
    } catch (e) {
      this.streamChecked = false;
      throw new BrokerError(`JetStream did not store the message: ${messageOf(e)}`);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = await this.connection?.catch(() => undefined);
    await c?.nc.close().catch(() => undefined);
  }
}

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));
