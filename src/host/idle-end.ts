/** How often an idle host looks again whether the turns still running have ended. */
const BUSY_POLL_MS = 1000;

/**
 * When the agent host ends: `idleMs` after it was armed (the last window left, or none came), once `busy` says
 * no window is connected and no turn runs (looked at again every second while it does). A window that joins
 * disarms it.
 */
export class IdleEnd {
  private timer: NodeJS.Timeout | undefined;
  readonly ended: Promise<void>;
  private end: () => void = () => {};

  constructor(
    private readonly idleMs: number,
    private readonly busy: () => boolean,
  ) {
    this.ended = new Promise((resolve) => (this.end = resolve));
  }

  arm(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.check(), this.idleMs);
  }

  disarm(): void {
    clearTimeout(this.timer);
  }

  private check(): void {
    if (this.busy()) this.timer = setTimeout(() => this.check(), BUSY_POLL_MS);
    else this.end();
  }
}
