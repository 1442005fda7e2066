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

/** Query parameters whose values are never logged: passwords, tokens, codes, keys, sessions, secrets. */
const SECRET_PARAMETER = /pass|token|secret|session|code|key|auth|jwt|otp/i;

/**
 * The request URL as logged: the value of every query parameter whose name looks like a secret is
 * replaced. Clients do put passwords and tokens in URLs (`/v1/login?password=…`) even though no
 * route reads them there, and the request line is logged for every request.
 */
export function loggableUrl(url: string): string {
  const mark = url.indexOf('?');
  if (mark < 0) return url;
  const query = url
    .slice(mark + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // a malformed escape: judge the name as sent
      }
      return equals >= 0 && SECRET_PARAMETER.test(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, mark)}?${query}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** fastify's request serializer, with the URL through loggableUrl. */
function serializeRequest(request: LoggedRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: request.url === undefined ? undefined : loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  const config = { level: options.level ?? 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { req: serializeRequest } };
  return options.destination === undefined ? pino(config) : pino(config, options.destination);
}
