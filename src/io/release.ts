/**
 * Frees a record's bytes on the main thread now rather than at its next garbage collection.
 *
 * Every record crosses the main thread as ArrayBuffers that are dead once it is settled, and the
 * main thread allocates so little JavaScript that V8 collects them only after their external
 * memory has grown by its 64 MB soft limit (issue 26: 30-72 MB of them at the run's peak, and
 * malloc keeps what it held). Transferring a buffer detaches it and hands its memory to the
 * message; a message posted on a closed port is still serialized (transfers behave as the HTML
 * spec says) and then dropped, which frees the memory at once. Only a buffer the view covers
 * whole is released, so a view into a buffer shared with others (a read chunk) is left alone;
 * small ones are not worth a message.
 */
import { MessageChannel } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';

const RELEASE_FROM_BYTES = 16 * 1024;

let closedPort: MessagePort | undefined;

function port(): MessagePort {
  if (closedPort === undefined) {
    closedPort = new MessageChannel().port1;
    closedPort.close();
  }
  return closedPort;
}

/** `bytes` covers its whole ArrayBuffer (not a view into a buffer others may share): it can be transferred or freed. */
export function owned(bytes: Uint8Array): boolean {
  const buffer = bytes.buffer;
  return buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength;
}

/** Frees `bytes`' buffer if `bytes` is its only view worth freeing; the caller must not use it afterwards. */
export function release(bytes: Uint8Array): void {
  if (!owned(bytes) || bytes.buffer.byteLength < RELEASE_FROM_BYTES) return;
  port().postMessage(null, [bytes.buffer as ArrayBuffer]);
}
