/**
 * /v1: accounts and tokens. Each POST endpoint is one entry: its request and reply shapes
 * (auth/schemas.ts), the statuses it answers with a Message, and the auth service call. The
 * OpenAPI reply of each is generated from its reply shape.
 */
import * as S from '../../auth/schemas.js';
import type { AuthService, Caller } from '../../auth/service.js';
import { authOf } from '../context.js';
import { jsonBody } from '../read.js';
import { route, type RouteEntry } from '../route.js';
import type { z } from 'zod';

function post<Req extends z.ZodType, Reply extends z.ZodType>(
  path: string,
  summary: string,
  request: Req,
  reply: Reply,
  errors: readonly number[],
  run: (service: AuthService, body: z.output<Req>, caller: Caller) => Promise<z.input<Reply>>,
): RouteEntry {
  return route<z.output<Req>>({
    method: 'POST',
    path: `/v1${path}`,
    part: 'auth',
    summary,
    request: request as z.ZodType<z.output<Req>>,
    read: jsonBody,
    reply,
    errors,
    handler: (body, request, _reply, ctx) => run(authOf(ctx), body, { address: request.ip }),
  });
}

export const v1Routes: readonly RouteEntry[] = [
  post('/login', 'Log in with username and password', S.LoginRequest, S.LoginReply, [400, 401, 403, 422, 429], (s, b, c) => s.login(b, c)),
  post('/token-refresh', 'Get new access and id tokens with a refresh token', S.RefreshRequest, S.RefreshReply, [400, 401, 403, 422, 429], (s, b, c) => s.refresh(b, c)),
  post('/token-revoke', 'Revoke a refresh token and every access token minted from it', S.RevokeRequest, S.Message, [400, 401, 422], (s, b) => s.revoke(b)),
  post('/forgot-password', 'E-mail a one-time confirmation code (same answer for unknown accounts)', S.ForgotPasswordRequest, S.Message, [400, 422, 429], (s, b, c) => s.forgotPassword(b, c)),
  post(
    '/forgot-password-confirm',
    'Set a new password with the e-mailed code; revokes all refresh tokens',
    S.ForgotPasswordConfirmRequest,
    S.Message,
    [400, 401, 403, 422, 429],
    (s, b, c) => s.confirmForgotPassword(b, c),
  ),
  post('/change-password', 'Change the password; revokes all refresh tokens', S.ChangePasswordRequest, S.Message, [400, 401, 403, 422, 429], (s, b, c) => s.changePassword(b, c)),
  post('/new-password-required', 'Answer the NEW_PASSWORD_REQUIRED challenge of a first login', S.NewPasswordRequiredRequest, S.NewPasswordReply, [400, 401, 403, 422], (s, b) => s.completeNewPassword(b)),
  route({
    method: 'GET',
    path: '/v1/.well-known/jwks.json',
    part: 'auth',
    summary: 'Public keys that verify access and id tokens',
    reply: S.Jwks,
    errors: [],
    openapi: { replyDescription: 'JWKS' },
    handler: async (_input, _request, reply, ctx) => {
      // Short public caching: a rotated-in key reaches verifiers within minutes.
      reply.header('cache-control', 'public, max-age=300');
      return { keys: await ctx.keys.publicJwks() };
    },
  }),
  route({
    method: 'GET',
    path: '/v1/openapi.json',
    part: 'auth',
    summary: 'This document',
    undocumented: true,
    errors: [],
    handler: async (_input, _request, _reply, ctx) => ctx.openapi.v1,
  }),
];
