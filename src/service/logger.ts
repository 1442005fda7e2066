import pino, { type DestinationStream, type Logger } from 'pino';

/**
 * Structured JSON logs. Request bodies are never logged; these paths are redacted anyway so that
 * a secret put into a log object by mistake comes out as "[redacted]".
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'password',
  'new_password',
  'previous_password',
  'proposed_password',
  'refresh_token',
  'access_token',
  'id_token',
  'session',
  'confirmation_code',
  '*.password',
  '*.new_password',
  '*.previous_password',
  '*.proposed_password',
  '*.refresh_token',
  '*.access_token',
  '*.id_token',
  '*.session',
  '*.confirmation_code',
];

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  const config = { level: options.level ?? 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } };
  return options.destination === undefined ? pino(config) : pino(config, options.destination);
}
