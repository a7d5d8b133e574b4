/**
 * Which ACP session ids are live on an agent's processes, who holds each (a conversation, or the spare), and
 * whether a prompt runs in it: the one owner every path asks (open, load, resume, spare, close, evict, cancel).
 * A prompt outlives its holder: a conversation closed while its cancelled prompt still runs lets the id go, but
 * the prompt is still known here, so that nothing prompts that id again until it ended.
 */
export class LiveSessions<P, H> {
  private readonly live = new Map<string, Live<P, H>>();

  /** Who holds `sessionId`, and on which process. */
  holderOf(sessionId: string): { readonly holder: H; readonly process: P } | undefined {
    const entry = this.live.get(sessionId);
    return entry?.holder === undefined ? undefined : { holder: entry.holder, process: entry.process };
  }

  /** Every held id. */
  held(): { readonly sessionId: string; readonly holder: H; readonly process: P }[] {
    return [...this.live].flatMap(([sessionId, { holder, process }]) => (holder === undefined ? [] : [{ sessionId, holder, process }]));
  }

  /**
   * `holder` holds `sessionId` on `process` from now on. An id another holds, or in which a prompt still runs,
   * is refused: only an agent that hands out one id twice gets there.
   */
  hold(sessionId: string, process: P, holder: H): void {
    const entry = this.entryOf(sessionId, process);
    if (entry.holder !== undefined && entry.holder !== holder) throw new SessionIdInUse(sessionId, 'held');
    if (entry.holder === undefined && entry.prompt !== undefined) throw new SessionIdInUse(sessionId, 'prompting');
    entry.holder = holder;
  }

  /** `holder` lets `sessionId` go (nothing happens when another holds it). */
  letGo(sessionId: string, holder: H): boolean {
    const entry = this.live.get(sessionId);
    if (entry?.holder !== holder) return false;
    entry.holder = undefined;
    this.dropIfIdle(sessionId, entry);
    return true;
  }

  /** Runs `step` on `sessionId` after whatever else runs on it (opening, closing) has finished. */
  exclusive<T>(sessionId: string, process: P, step: () => Promise<T>): Promise<T> {
    const entry = this.entryOf(sessionId, process);
    const result = entry.steps.then(step);
    const done = result.then(
      () => {},
      () => {},
    );
    entry.steps = done;
    void done.then(() => {
      const now = this.live.get(sessionId);
      if (now === entry && entry.steps === done) {
        entry.stepping = false;
        this.dropIfIdle(sessionId, entry);
      }
    });
    entry.stepping = true;
    return result;
  }

  /** A prompt runs in `sessionId` until `request` settles. */
  prompting(sessionId: string, process: P, request: Promise<unknown>): void {
    const entry = this.entryOf(sessionId, process);
    const ended = request.then(
      () => {},
      () => {},
    );
    entry.prompt = ended;
    void ended.then(() => {
      if (this.live.get(sessionId) !== entry || entry.prompt !== ended) return;
      entry.prompt = undefined;
      this.dropIfIdle(sessionId, entry);
    });
  }

  /** Resolves true once no prompt runs in `sessionId` on `process`, false when one still runs after `timeoutMs`. */
  async idle(sessionId: string, process: P, timeoutMs: number): Promise<boolean> {
    const prompt = this.live.get(sessionId)?.process === process ? this.live.get(sessionId)?.prompt : undefined;
    if (prompt === undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
    return Promise.race([prompt.then(() => true), late]).finally(() => clearTimeout(timer));
  }

  /** `process` ended: nothing is live on it any more. Returns what was held on it. */
  processEnded(process: P): { readonly sessionId: string; readonly holder: H }[] {
    const held: { sessionId: string; holder: H }[] = [];
    for (const [sessionId, entry] of [...this.live]) {
      if (entry.process !== process) continue;
      this.live.delete(sessionId);
      if (entry.holder !== undefined) held.push({ sessionId, holder: entry.holder });
    }
    return held;
  }

  /** The entry of `sessionId` on `process`; one left by a process that ended is replaced. */
  private entryOf(sessionId: string, process: P): Live<P, H> {
    const entry = this.live.get(sessionId);
    if (entry !== undefined && entry.process === process) return entry;
    const fresh: Live<P, H> = { process, holder: undefined, prompt: undefined, steps: entry?.steps ?? Promise.resolve(), stepping: entry?.stepping ?? false };
    this.live.set(sessionId, fresh);
    return fresh;
  }

  private dropIfIdle(sessionId: string, entry: Live<P, H>): void {
    if (entry.holder === undefined && entry.prompt === undefined && !entry.stepping && this.live.get(sessionId) === entry) this.live.delete(sessionId);
  }
}

interface Live<P, H> {
  readonly process: P;
  holder: H | undefined;
  /** Settles when the prompt running in the session ended. */
  prompt: Promise<void> | undefined;
  /** The last step (open, close) on the session. */
  steps: Promise<void>;
  stepping: boolean;
}

/** An agent gave an id that is live already: held by another, or prompting still. */
export class SessionIdInUse extends Error {
  constructor(
    readonly sessionId: string,
    readonly how: 'held' | 'prompting',
  ) {
    super(how === 'held' ? `session ${sessionId} is open for another conversation` : `a prompt still runs in session ${sessionId}`);
  }
}
