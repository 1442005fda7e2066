/**
 * The version of the parsed output, part of the parsed-article cache key. The package version
 * changes with every release; bump OUTPUT_REVISION when the engine's output changes between
 * releases, so cached Articles are parsed again (lazily, on their next request).
 */
import { WIKISTRUCT_VERSION } from './upstream/user-agent.js';

export const OUTPUT_REVISION = 1;

export const ENGINE_VERSION = `${WIKISTRUCT_VERSION}+${OUTPUT_REVISION}`;
