/** GET /v2/openapi.json: the content API's OpenAPI 3.1 document, written from the route table (routes/openapi.ts). */
import { route, type RouteEntry } from '../route.js';

export const v2OpenApiRoutes: readonly RouteEntry[] = [
  route({
    method: 'GET',
    path: '/v2/openapi.json',
    part: 'content',
    summary: 'This document',
    undocumented: true,
    errors: [],
    handler: async (_input, _request, _reply, ctx) => ctx.openapi.v2,
  }),
];
