/**
 * The bus over Redis pub/sub. A subscribed connection can run nothing else, so it is a duplicate
 * of the process's client; ioredis reconnects it and subscribes again by itself, and since
 * messages published while it was away are lost, subscribers are told to drop everything then.
 */
import type { Redis } from 'ioredis';
import { Subscribers, type Bus } from './pubsub.js';

/** Subscribes before resolving, so no message published afterwards is missed. */
export async function openRedisBus(redis: Redis, channel: string): Promise<Bus> {
  const subscribers = new Subscribers();
  const subscriber = redis.duplicate();
  subscriber.on('message', (from: string, text: string) => {
    if (from === channel) subscribers.receive(text);
  });
  let ready = false;
  subscriber.on('ready', () => {
    if (ready) subscribers.resync();
    ready = true;
  });
  // Connection errors are retried by ioredis; without a listener Node would throw them.
  subscriber.on('error', () => {});
  await subscriber.subscribe(channel);
  return {
    publish: async (topic, payload) => {
      await redis.publish(channel, subscribers.encode(topic, payload));
    },
    subscribe: (topic, handler) => subscribers.add(topic, handler),
    close: async () => {
      subscriber.disconnect();
    },
  };
}
