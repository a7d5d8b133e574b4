/** A conversation that took its session but never prompted holds the other resumes back this long at most. */
const QUIET_MS = 30_000;

/**
 * After the latest conversation's session resumed, the person reads that chat for about this long before its
 * first message: the other resumes and the spare session wait it out. Each makes the agent start a session (Claude
 * Code: a process of its own, about a second of CPU), which the first message would otherwise compete with (the
 * first answer after a reload came 100–250 ms later on two cores: issue 48).
 */
export const READING_MS = 5_000;

/**
 * When sessions resume ahead after a window reload: the first asked (the latest conversation's) at once; each other
 * after the one asked before it, once the person read a while (`readingMs` after the first resumed) and no
 * conversation's first prompt in a session it took runs. An agent that runs as two processes (its shell off in the
 * second: shell-off-variant.ts) keeps one for both, so that neither's resumes, spare or start compete with the
 * latest chat's first message in the other.
 */
export class ResumeSchedule {
  /** The resume asked last: each waits for the one before. */
  private queue: Promise<unknown> = Promise.resolve();
  /** What resumes not yet begun wait for: the first prompts of conversations that took theirs. */
  private quiet: Promise<void> = Promise.resolve();
  /** The person's reading after the first resume asked ended: what the others wait for, and the spares. */
  private reading: Promise<void> | undefined;

  constructor(private readonly readingMs = READING_MS) {}

  /** When a resume asked now may begin. */
  turn(): Promise<void> {
    const reading = this.reading;
    if (reading === undefined) return Promise.resolve();
    return this.queue.then(() => reading).then(() => this.quiet);
  }

  /** A resume was asked, `ended` once it resumed or failed: the next waits for it; the first's starts the reading. */
  asked(ended: Promise<unknown>): void {
    this.queue = ended;
    this.reading ??= ended.then(() => delay(this.readingMs));
  }

  /** A conversation took its session and prompts in it: what has not begun waits until `prompted` settles (at most QUIET_MS). */
  quietWhile(prompted: Promise<void>): void {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, QUIET_MS).unref()));
    const over = Promise.race([prompted, late]).finally(() => clearTimeout(timer));
    this.quiet = Promise.all([this.quiet, over]).then(() => {});
  }

  /**
   * Settles once every resume asked so far has ended, resumed or not, and the person's reading after the first is
   * over, with no conversation's first prompt running: when the agent may open a spare without competing with either.
   */
  settled(): Promise<void> {
    return this.queue
      .then(() => this.reading)
      .then(() => this.quiet)
      .then(
        () => {},
        () => {},
      );
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
