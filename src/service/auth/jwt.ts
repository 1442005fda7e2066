import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { epochSeconds, type Clock } from '../clock.js';
import type { Account } from './accounts.js';
import { SIGNING_ALG, type KeyStore } from './keys.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './settings.js';

export interface TokenMinter {
  /** An access token carrying the id of the refresh token it came from (`rti`), for revocation. */
  access(account: Account, refreshTokenId: string): Promise<string>;
  /** An id token: who the account is (username and e-mail). */
  id(account: Account): Promise<string>;
}

export function createTokenMinter(keys: KeyStore, clock: Clock, issuer: string): TokenMinter {
  const sign = async (claims: Record<string, unknown>, subject: string): Promise<string> => {
    const signer = await keys.currentSigner();
    const iat = epochSeconds(clock);
    return new SignJWT(claims)
      .setProtectedHeader({ alg: SIGNING_ALG, kid: signer.kid, typ: 'JWT' })
      .setSubject(subject)
      .setIssuer(issuer)
      .setIssuedAt(iat)
      .setExpirationTime(iat + ACCESS_TOKEN_TTL_SECONDS)
      .setJti(randomUUID())
      .sign(signer.key);
  };
  return {
    access: (account, refreshTokenId) =>
      sign({ username: account.username, token_use: 'access', rti: refreshTokenId }, account.id),
    id: (account) => sign({ username: account.username, email: account.email, token_use: 'id' }, account.id),
  };
}
