import { BrokerError, JetStreamBroker, type OutgoingMessage } from '../../src/events/jetstream';
import { privateNats, readStream, type PrivateNats } from '../support/nats';

// The relay's window (src/events/jetstream.ts, publishInOrder) against a nats-server of the
// test's own: all messages but the last go without asking for an acknowledgement, each
// naming its predecessor, and the last one's acknowledgement is what the relay trusts. So it
// resolves only when all of them are in the stream, in order, and rejects when they are not.

jest.setTimeout(60_000);

let nats: PrivateNats;
let broker: JetStreamBroker;
const STREAM = 'ORDER';

beforeAll(async () => {
  nats = await privateNats();
  broker = new JetStreamBroker({ url: nats.url, stream: STREAM, subjectPrefix: 'test.order', duplicateWindowSeconds: 60 });
});

afterAll(async () => {
  await broker.close();
  await nats.destroy();
});

const message = (n: string): OutgoingMessage => ({ subject: `test.order.entry.${n}`, msgId: `m-${n}`, body: JSON.stringify({ n }) });
const stored = async () => (await readStream(nats.url, STREAM)).map((m) => m.msgId);

it('stores a window in order, and the next window after it', async () => {
  await broker.publishInOrder(['a', 'b', 'c'].map(message), undefined);
  expect(await stored()).toEqual(['m-a', 'm-b', 'm-c']);
  await broker.publishInOrder(['d', 'e'].map(message), 'm-c');
  expect(await stored()).toEqual(['m-a', 'm-b', 'm-c', 'm-d', 'm-e']);
});

it("refuses a window whose predecessor is not the stream's last message, and stores none of it", async () => {
  // The stream's last message is m-e: the window's first fails its check, and so every one after it.
  await expect(broker.publishInOrder(['f', 'g', 'h'].map(message), 'm-c')).rejects.toBeInstanceOf(BrokerError);
  expect(await stored()).toEqual(['m-a', 'm-b', 'm-c', 'm-d', 'm-e']);
  // After it the relay goes one at a time; the same entries then follow in order.
  for (const n of ['f', 'g', 'h']) await broker.publish(message(n));
  expect(await stored()).toEqual(['m-a', 'm-b', 'm-c', 'm-d', 'm-e', 'm-f', 'm-g', 'm-h']);
});

it('a window the stream already holds (a new relay term publishing again): resolves, nothing is stored twice', async () => {
  await broker.publishInOrder(['g', 'h'].map(message), undefined);
  expect(await stored()).toEqual(['m-a', 'm-b', 'm-c', 'm-d', 'm-e', 'm-f', 'm-g', 'm-h']);
});
