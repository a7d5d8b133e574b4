/**
 * Whether VS Code keeps the extension's secrets beyond this window. Desktop VS Code keeps them in the OS keychain;
 * a VS Code without an encryption service (VS Code for the web in code-server and hosts like it: "Encryption is not
 * available, falling back to in-memory storage", its SecretStorageService) keeps them in memory, per window, so a key
 * set in one window is missing in the next and after a reload. No API says which: a probe secret is stored with a
 * mark in the global state (which such hosts keep on disk), and a later window that finds the mark but not the
 * secret knows its secrets are this window's only. Before any earlier window, VS Code for the web may be either.
 */
import type { SecretStore } from './agent-secrets.js';

/** The part of VS Code's Memento (the global state) used here. */
export interface MarkStore {
  get(key: string): unknown;
  update(key: string, value: unknown): PromiseLike<void>;
}

/** `persisted`: kept across windows; `window`: this window's only; `unknown`: no earlier window said (`web`: VS Code for the web). */
export type SecretPersistence = 'persisted' | 'window' | 'unknown' | 'unknown-web';

const PROBE = 'symposium.secretsPersist';
const MARK = 'symposium.secretsProbeStored';

export async function secretPersistence(secrets: SecretStore, marks: MarkStore, web: boolean): Promise<SecretPersistence> {
  if ((await secrets.get(PROBE)) !== undefined) return 'persisted';
  const earlier = marks.get(MARK) === true;
  await secrets.store(PROBE, 'kept');
  await marks.update(MARK, true);
  if (earlier) return 'window';
  return web ? 'unknown-web' : 'unknown';
}

/**
 * What a key just set adds to its confirmation where VS Code may forget it (nothing where it keeps it). With the
 * person's agent host (`sharedHost`), which holds the key for the agents of every window while it runs, what is lost
 * is only VS Code's copy: the key is needed again once the host has ended.
 */
export function persistenceWarning(persistence: SecretPersistence, sharedHost: boolean): string {
  if (persistence === 'persisted' || persistence === 'unknown') return '';
  const keeps = persistence === 'window' ? 'keeps secrets for this window only (it has no encryption service)' : 'may keep secrets for this window only (VS Code for the web without an encryption service)';
  const lost = sharedHost
    ? 'your agent host gives the key to your agents in every window while it runs; once it has ended (after your last window closed), set it again.'
    : `another window, or this one after a reload, ${persistence === 'window' ? 'does' : 'may'} not have it.`;
  return ` This VS Code ${keeps}: ${lost}`;
}
