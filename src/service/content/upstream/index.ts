export { WikiClient, WikiClientOptionsSchema, UpstreamMetaSchema, revisionOfHtml } from './wiki-client.js';
export type { LatestRevision, UpstreamArticle, UpstreamMeta, WikiClientOptions } from './wiki-client.js';
export type { RetryEvent } from './http.js';
export { upstreamEnvelope } from './envelope.js';
export {
  UnknownProject,
  UpstreamError,
  UpstreamNotFound,
  UpstreamTimeout,
  UpstreamTooComplex,
  UpstreamTooLarge,
  UpstreamUnavailable,
} from './errors.js';
export type { UpstreamErrorCode } from './errors.js';
export { userAgent, WIKISTRUCT_VERSION } from './user-agent.js';
export { UpstreamLoader } from './loader.js';
export type { UpstreamLoaderOptions } from './loader.js';
