/**
 * The user's newer catalogue (`symposium.registry`): a `registry.json` file, or the URL of one (the ACP
 * registry's own, or a mirror). Its agents are added to the shipped snapshot's; the snapshot's pinned
 * versions stay the default. A URL is fetched once per value of the setting, with a timeout; until it has
 * answered, and whenever it fails, the shipped catalogue is what the user gets, and the log says why.
 * No `vscode` here: the adapter hands in the log, the file system, `fetch` and what to do on a change.
 */
import type { CatalogEntry } from './registry.js';
import { catalogOfRegistry, readRegistryFile, withRegistry } from './registry.js';

/** How long a registry URL may take to answer, by default. */
export const REGISTRY_TIMEOUT_MS = 15_000;
/** A registry larger than this is refused unread (the ACP registry is a few hundred kB). */
export const REGISTRY_MAX_BYTES = 10 * 1024 * 1024;

export type Fetch = (url: string, init: { readonly signal: AbortSignal; readonly headers: Record<string, string> }) => Promise<Response>;

export interface RegistryLog {
  info(message: string): void;
  warn(message: string): void;
}

export function isRegistryUrl(setting: string): boolean {
  return /^https?:\/\//i.test(setting.trim());
}

/** The registry at `url`, for this platform: its entries, or the problems that kept them out. */
export async function fetchRegistry(
  url: string,
  target: string | undefined,
  options: { readonly fetch?: Fetch; readonly timeoutMs?: number; readonly maxBytes?: number } = {},
): Promise<{ entries: CatalogEntry[]; problems: string[] }> {
  const timeoutMs = options.timeoutMs ?? REGISTRY_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? REGISTRY_MAX_BYTES;
  const fail = (reason: string) => ({ entries: [], problems: [`symposium.registry: could not read ${url}: ${reason}; the shipped catalogue is used`] });
  const signal = AbortSignal.timeout(timeoutMs);
  let text: string;
  try {
    const response = await (options.fetch ?? fetch)(url, { signal, headers: { accept: 'application/json' } });
    if (!response.ok) {
      await response.body?.cancel();
      return fail(`HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`);
    }
    const length = Number(response.headers.get('content-length') ?? NaN);
    if (length > maxBytes) {
      await response.body?.cancel();
      return fail(`it is ${length} bytes, more than the ${maxBytes} a registry may have`);
    }
    text = await response.text();
    if (text.length > maxBytes) return fail(`it is more than the ${maxBytes} bytes a registry may have`);
  } catch (error) {
    if (signal.aborted) return fail(`no answer within ${timeoutMs / 1000} s`);
    return fail(describeFetchError(error));
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    return fail(`it is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const { entries, problems } = catalogOfRegistry(raw, target);
  return { entries, problems: problems.map((problem) => `symposium.registry (${url}): ${problem}`) };
}

/**
 * Node's fetch says only "fetch failed"; the cause says what (ECONNREFUSED, ENOTFOUND, a bad certificate).
 * Read by shape, not `instanceof`: fetch's errors may come from another realm.
 */
function describeFetchError(error: unknown): string {
  const { message, cause } = (typeof error === 'object' && error !== null ? error : {}) as { message?: unknown; cause?: unknown };
  const text = typeof message === 'string' ? message : String(error);
  const { code, message: causeMessage } = (typeof cause === 'object' && cause !== null ? cause : {}) as { code?: unknown; message?: unknown };
  const why = typeof code === 'string' ? code : typeof causeMessage === 'string' ? causeMessage : undefined;
  return why === undefined ? text : `${text}: ${why}`;
}

export interface UserRegistryDeps {
  readonly builtin: readonly CatalogEntry[];
  /** The registry's name of this platform (`platformTarget`). */
  readonly target: string | undefined;
  readonly log: RegistryLog;
  readonly readFile: (file: string) => string;
  /** The file's modification time, or undefined when it cannot be read (the read then says why). */
  readonly mtime: (file: string) => number | undefined;
  /** `~/…` to a path. */
  readonly expandHome: (file: string) => string;
  readonly fetch?: Fetch;
  readonly timeoutMs?: number;
  /** A fetched registry arrived: the catalogue changed. */
  readonly onChange: () => void;
}

/** The catalogue with the user's registry: a file read again when its time changes, a URL fetched once per setting. */
export class UserRegistry {
  private file: { readonly key: string; readonly catalog: readonly CatalogEntry[] } | undefined;
  private url: { readonly url: string; catalog: readonly CatalogEntry[] | undefined } | undefined;
  /** The latest fetch of a URL, settled once its catalogue is in (for the tests). */
  pending: Promise<void> = Promise.resolve();

  constructor(private readonly deps: UserRegistryDeps) {}

  catalog(setting: string): readonly CatalogEntry[] {
    const value = setting.trim();
    if (value === '') return this.deps.builtin;
    return isRegistryUrl(value) ? this.fromUrl(value) : this.fromFile(this.deps.expandHome(value));
  }

  private fromFile(file: string): readonly CatalogEntry[] {
    const key = `${file}@${this.deps.mtime(file) ?? 'unreadable'}`;
    if (this.file?.key === key) return this.file.catalog;
    const { entries, problems } = readRegistryFile(file, this.deps.target, this.deps.readFile);
    for (const problem of problems) this.deps.log.warn(problem);
    this.deps.log.info(`symposium.registry: ${entries.length} agents read from ${file}`);
    const catalog = withRegistry(this.deps.builtin, entries);
    this.file = { key, catalog };
    return catalog;
  }

  private fromUrl(url: string): readonly CatalogEntry[] {
    if (this.url?.url === url) return this.url.catalog ?? this.deps.builtin;
    const current = { url, catalog: undefined as readonly CatalogEntry[] | undefined };
    this.url = current;
    this.deps.log.info(`symposium.registry: fetching ${url}`);
    this.pending = fetchRegistry(url, this.deps.target, { ...(this.deps.fetch === undefined ? {} : { fetch: this.deps.fetch }), ...(this.deps.timeoutMs === undefined ? {} : { timeoutMs: this.deps.timeoutMs }) }).then(
      ({ entries, problems }) => {
        for (const problem of problems) this.deps.log.warn(problem);
        current.catalog = withRegistry(this.deps.builtin, entries);
        if (this.url !== current) return;
        this.deps.log.info(`symposium.registry: ${entries.length} agents read from ${url}`);
        if (entries.length > 0) this.deps.onChange();
      },
    );
    return this.deps.builtin;
  }
}
