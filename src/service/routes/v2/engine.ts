/**
 * The engine client's refusals as /v2/parse and /v2/source replies: too large is a 413,
 * anything else the engine refuses (INPUT_TOO_COMPLEX, NOT_HTML, INVALID_INPUT …) a 422 with its
 * message; an engine bug stays an error (a 500, logged).
 */
import { ParseFailedError } from '../../engine-client.js';
import { HttpError, unprocessable } from '../../errors.js';

export async function refused(parsed: Promise<string>): Promise<string> {
  try {
    return await parsed;
  } catch (error) {
    if (!(error instanceof ParseFailedError)) throw error;
    if (error.code === 'INPUT_TOO_LARGE') throw new HttpError(413, error.message);
    throw unprocessable(error.message);
  }
}
