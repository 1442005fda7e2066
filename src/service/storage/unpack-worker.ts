/**
 * Worker-thread entry: unpacks one template (pglite-template.ts `unpackTemplateOffThread`) and
 * reports how it went. The start's main thread meanwhile loads the service's modules.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { unpackTemplate } from './pglite-template.js';
import type { UnpackResult, UnpackTask } from './pglite-template.js';

const task = workerData as UnpackTask;
const port = parentPort;
if (port === null) throw new Error('unpack-worker.ts must run in a worker thread');
unpackTemplate(task.template, task.dataDir, task.required).then(
  () => port.postMessage({ ok: true } satisfies UnpackResult),
  (error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code;
    port.postMessage({ ok: false, message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) } satisfies UnpackResult);
  },
);
