/**
 * The fuzzer's worker thread: examines inputs one at a time, so that the main thread can bound
 * each input's time and memory (a hung or exploding input costs the worker, not the run).
 */
import { parentPort } from 'node:worker_threads';
import { examine } from './examine.js';
import type { Target } from './inputs.js';

export interface Task {
  target: Target;
  text: string;
}

parentPort?.on('message', (task: Task) => {
  parentPort?.postMessage(examine(task.target, task.text));
});
