/**
 * The session token, from login_with_auth_token with the private token. Cached in memory;
 * callers that arrive while a login is under way share it; a stale token is replaced once.
 */

export interface SessionManager {
  /** The current session token, logging in first if there is none. */
  get(): Promise<string>;
  /**
   * The upstream refused `stale` (401): log in again, unless another caller already did,
   * and return the token to retry with.
   */
  renew(stale: string): Promise<string>;
}

/**
 * @example
 * const session = createSessionManager(() => loginWithAuthToken());
 * const token = await session.get(); // one login, however many callers
 */
export function createSessionManager(login: () => Promise<string>): SessionManager {
  let token: string | null = null;
  let pending: Promise<string> | null = null;

  function start(): Promise<string> {
    pending ??= login().then(
      (fresh) => {
        token = fresh;
        pending = null;
        return fresh;
      },
      (error: unknown) => {
        pending = null;
        throw error;
      },
    );
    return pending;
  }

  return {
    get() {
      return token !== null ? Promise.resolve(token) : start();
    },
    renew(stale: string) {
      if (token !== null && token !== stale) return Promise.resolve(token);
      token = null;
      return start();
    },
  };
}
