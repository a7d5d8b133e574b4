/**
 * The only addresses `symposium/openUrl` carries: web pages (http and https). The bridge sends no other, and the
 * extension opens no other, whatever reaches it.
 */

/** The origin of an http(s) address, else undefined. It is also what logs may say of one: a sign-in address's path and query may carry secrets. */
export function webPageOrigin(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
