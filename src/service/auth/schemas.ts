import { z } from 'zod';
import { storableText } from '../storable.js';

/**
 * Request and reply bodies of the /v1 auth endpoints: the single source of their TypeScript
 * types, of request validation (422 naming the field) and of the OpenAPI document.
 * Objects are strict: an unknown field is an error, not silently ignored. Every string field is
 * `storableText`: NUL or a lone surrogate is a 422 naming the field before any query runs (the
 * database cannot hold NUL, and a lone surrogate has no UTF-8 form, so two different passwords
 * would hash alike).
 */
const username = storableText(
  z.string().trim().toLowerCase().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
);
/** Any length is accepted here; the password policy (with its own messages) applies to new ones. */
const secret = storableText(z.string().min(1, 'must not be empty').max(4096, 'must be at most 4096 characters'));
const newPassword = storableText();

export const LoginRequest = z.strictObject({ username, password: secret });
export const RefreshRequest = z.strictObject({ username, refresh_token: secret });
export const RevokeRequest = z.strictObject({ refresh_token: secret });
export const ForgotPasswordRequest = z.strictObject({ username });
export const ForgotPasswordConfirmRequest = z.strictObject({
  username,
  password: newPassword,
  confirmation_code: storableText(z.string().trim().min(1, 'must not be empty').max(64, 'must be at most 64 characters')),
});
export const ChangePasswordRequest = z.strictObject({
  access_token: secret,
  previous_password: secret,
  proposed_password: newPassword,
});
export const NewPasswordRequiredRequest = z.strictObject({ session: secret, username, new_password: newPassword });

export const Message = z.object({ message: z.string(), status: z.number().int() });
export const Tokens = z.object({
  id_token: z.string(),
  access_token: z.string(),
  refresh_token: z.string(),
  expires_in: z.number().int(),
});
export const Challenge = z.object({ challenge_name: z.literal('NEW_PASSWORD_REQUIRED'), session: z.string() });
export const LoginReply = z.union([Tokens, Challenge]);
export const RefreshReply = Tokens.omit({ refresh_token: true });
export const NewPasswordReply = Tokens.extend({ session: z.string() });
export const Jwks = z.object({ keys: z.array(z.record(z.string(), z.unknown())) });

export type LoginRequest = z.infer<typeof LoginRequest>;
export type RefreshRequest = z.infer<typeof RefreshRequest>;
export type RevokeRequest = z.infer<typeof RevokeRequest>;
export type ForgotPasswordRequest = z.infer<typeof ForgotPasswordRequest>;
export type ForgotPasswordConfirmRequest = z.infer<typeof ForgotPasswordConfirmRequest>;
export type ChangePasswordRequest = z.infer<typeof ChangePasswordRequest>;
export type NewPasswordRequiredRequest = z.infer<typeof NewPasswordRequiredRequest>;
export type Message = z.infer<typeof Message>;
export type Tokens = z.infer<typeof Tokens>;
export type LoginReply = z.infer<typeof LoginReply>;
export type RefreshReply = z.infer<typeof RefreshReply>;
export type NewPasswordReply = z.infer<typeof NewPasswordReply>;
