/**
 * Worker-thread entry: converts the records the pool sends, one at a time, and sends back the
 * serialized Article bytes (transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { convertPayload } from './convert-record.js';
import type { ConvertOptions } from './convert-record.js';
import { loadEngines } from './engines.js';
import type { TaskMessage, ResultMessage } from './pool.js';

const port = parentPort;
if (port === null) throw new Error('worker.ts must run in a worker thread');
const options = (workerData as { options: ConvertOptions }).options;
const engines = await loadEngines();

port.on('message', (task: TaskMessage) => {
  const outcome = convertPayload(task.payload, engines, options);
  const message: ResultMessage = { seq: task.seq, outcome };
  if (outcome.status === 'ok') port.postMessage(message, [outcome.json.buffer as ArrayBuffer]);
  else port.postMessage(message);
});
