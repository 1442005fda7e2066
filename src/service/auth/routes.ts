import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import type { z } from 'zod';
import { badRequest, unprocessable } from '../errors.js';
import type { KeyStore } from './keys.js';
import * as S from './schemas.js';
import type { AuthService, Caller } from './service.js';

/**
 * One row per endpoint: path, schemas, and the service call. The same table registers the
 * routes and writes the OpenAPI document, so the two cannot drift apart.
 */
export interface Operation {
  path: string;
  summary: string;
  request: z.ZodType;
  reply: z.ZodType;
  /** The statuses other than 200 this endpoint answers with a Message. */
  errors: readonly number[];
  run(body: never, caller: Caller): Promise<unknown>;
}

const operation = <Req extends z.ZodType, Reply extends z.ZodType>(op: {
  path: string;
  summary: string;
  request: Req;
  reply: Reply;
  errors: readonly number[];
  run(body: z.output<Req>, caller: Caller): Promise<z.input<Reply>>;
}): Operation => op as Operation;

export function authOperations(service: AuthService): Operation[] {
  return [
    operation({
      path: '/login', summary: 'Log in with username and password', request: S.LoginRequest, reply: S.LoginReply,
      errors: [400, 401, 403, 422, 429], run: (b, c) => service.login(b, c),
    }),
    operation({
      path: '/token-refresh', summary: 'Get new access and id tokens with a refresh token', request: S.RefreshRequest,
      reply: S.RefreshReply, errors: [400, 401, 403, 422, 429], run: (b, c) => service.refresh(b, c),
    }),
    operation({
      path: '/token-revoke', summary: 'Revoke a refresh token and every access token minted from it',
      request: S.RevokeRequest, reply: S.Message, errors: [400, 401, 422], run: (b) => service.revoke(b),
    }),
    operation({
      path: '/forgot-password', summary: 'E-mail a one-time confirmation code (same answer for unknown accounts)',
      request: S.ForgotPasswordRequest, reply: S.Message, errors: [400, 422, 429], run: (b, c) => service.forgotPassword(b, c),
    }),
    operation({
      path: '/forgot-password-confirm', summary: 'Set a new password with the e-mailed code; revokes all refresh tokens',
      request: S.ForgotPasswordConfirmRequest, reply: S.Message, errors: [400, 401, 403, 422, 429],
      run: (b, c) => service.confirmForgotPassword(b, c),
    }),
    operation({
      path: '/change-password', summary: 'Change the password; revokes all refresh tokens', request: S.ChangePasswordRequest,
      reply: S.Message, errors: [400, 401, 403, 422, 429], run: (b, c) => service.changePassword(b, c),
    }),
    operation({
      path: '/new-password-required', summary: 'Answer the NEW_PASSWORD_REQUIRED challenge of a first login',
      request: S.NewPasswordRequiredRequest, reply: S.NewPasswordReply, errors: [400, 401, 403, 422],
      run: (b) => service.completeNewPassword(b),
    }),
  ];
}

export interface AuthRoutesOptions {
  operations: readonly Operation[];
  keys: KeyStore;
  openapi: () => unknown;
}

/** The /v1 routes. Thin: parse the body with its zod schema, call the service, send its answer. */
export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, { operations, keys, openapi }) => {
  acceptAnyContentTypeAsJson(app);
  for (const op of operations) {
    app.post(op.path, async (request) => {
      const body = parseBody(op.request, request.body);
      return op.run(body as never, { address: request.ip });
    });
  }
  app.get('/.well-known/jwks.json', async (_request, reply) => {
    // Short public caching: a rotated-in key reaches verifiers within minutes.
    reply.header('cache-control', 'public, max-age=300');
    return { keys: await keys.publicJwks() };
  });
  app.get('/openapi.json', async () => openapi());
};

/**
 * The endpoints speak JSON only; a body sent with another (or no) content type is still read as
 * JSON, so that any non-JSON body gets the same 400 instead of a 415.
 */
function acceptAnyContentTypeAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, text, done) => {
    try {
      done(null, JSON.parse(text as string));
    } catch {
      done(badRequest('request body is not valid JSON'), undefined);
    }
  });
}

function parseBody(schema: z.ZodType, body: unknown): unknown {
  if (body === undefined) throw badRequest('request body is not valid JSON');
  const parsed = schema.safeParse(body, { reportInput: true });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw unprocessable('invalid request body');
  if (issue.code === 'unrecognized_keys') throw unprocessable(`${issue.keys.join(', ')}: unexpected field`);
  const field = issue.path.join('.');
  if (field === '') throw unprocessable('request body must be a JSON object');
  if (issue.code === 'invalid_type' && issue.input === undefined) throw unprocessable(`${field}: required field is missing`);
  if (issue.code === 'invalid_type') throw unprocessable(`${field}: must be a ${issue.expected}`);
  throw unprocessable(`${field}: ${issue.message}`);
}
