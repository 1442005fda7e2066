/**
 * Worker-thread entry: converts the records the pool sends, one at a time, and sends back the
 * serialized Article bytes (transferred, not copied).
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { convertPayload, WIKITEXT_NOT_LOADED } from './convert-record.js';
import type { ConvertOptions } from './convert-record.js';
import { htmlEngines, loadWikitext } from './engines.js';
import type { TaskMessage, ResultMessage } from './pool.js';
import type { Outcome } from '../io/record.js';

const port = mainPort();
const options = (workerData as { options: ConvertOptions }).options;
const engines = htmlEngines();

port.on('message', (task: TaskMessage) => {
  const outcome = convertPayload(task.payload, engines, options);
  if (outcome.status === 'failed' && outcome.code === WIKITEXT_NOT_LOADED) {
    void loadWikitext(engines).then(() => reply(task, convertPayload(task.payload, engines, options)));
    return;
  }
  reply(task, outcome);
});

function reply(task: TaskMessage, outcome: Outcome): void {
  const message: ResultMessage = { seq: task.seq, outcome };
  if (outcome.status === 'ok') port.postMessage(message, [outcome.json.buffer as ArrayBuffer]);
  else port.postMessage(message);
}

function mainPort(): MessagePort {
  if (parentPort === null) throw new Error('worker.ts must run in a worker thread');
  return parentPort;
}
