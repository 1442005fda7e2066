/**
 * Worker-thread entry: converts the records the pool sends, one at a time, and sends back the
 * serialized Article bytes (transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { convertPayload } from './convert-record.js';
import type { ConvertOptions } from './convert-record.js';
import type { TaskMessage, ResultMessage } from './pool.js';
import type { Outcome } from '../io/record.js';

const port = mainPort();
const options = (workerData as { options: ConvertOptions }).options;

port.on('message', (task: TaskMessage) => reply(task, convertPayload(task.payload, options)));

function reply(task: TaskMessage, outcome: Outcome): void {
  const message: ResultMessage = { seq: task.seq, outcome };
  if (outcome.status === 'ok') port.postMessage(message, [outcome.json.buffer as ArrayBuffer]);
  else port.postMessage(message);
}

function mainPort(): MessagePort {
  if (parentPort === null) throw new Error('worker.ts must run in a worker thread');
  return parentPort;
}
