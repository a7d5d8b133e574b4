import type { Writable } from 'node:stream';
import { OUTPUT_HIGH_WATER_BYTES, megabytes } from '../transport/output-pressure.js';

export interface StallLimits {
  /** Unread output above this is a window not keeping up. */
  readonly highWaterBytes: number;
  /** How long it may stay so before its connection is closed: a window busy for a moment reads on. */
  readonly graceMs: number;
  /** Unread output above this closes the connection at once: what a window leaves unread costs the host's memory. */
  readonly limitBytes: number;
}

/** What a window may leave unread: the bridge on stdio's high water, for 30 s; at most twice the largest message an agent may send (32 MB). */
export const WINDOW_STALL_LIMITS: StallLimits = { highWaterBytes: OUTPUT_HIGH_WATER_BYTES, graceMs: 30_000, limitBytes: 64 * 1024 * 1024 };

/**
 * A window that stops reading costs its own connection only. The bridge on stdio holds its agents back while its
 * one consumer does not read (output-pressure.ts); the host's agents serve every window, so holding them back would
 * stall every other window's chats. Instead, a connection whose unread output stays over the high water for the
 * grace time, or passes the limit, is closed: its turns run on, as a reloaded window's do, and the window finds what
 * they said with its next message.
 *
 *     unread   ──4 MB+────(30 s, still 4 MB+)──▶ closed      ──4 MB+──(read below)──▶ nothing      ──64 MB+──▶ closed
 *
 * `written` is called after each frame the host writes to the window: one comparison while the window keeps up.
 */
export class StalledWindow {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly output: Writable,
    private readonly limits: StallLimits,
    private readonly close: (why: string) => void,
  ) {
    output.once('close', () => clearTimeout(this.timer));
  }

  written(): void {
    const unread = this.output.writableLength;
    if (unread <= this.limits.highWaterBytes) {
      if (this.timer !== undefined) this.kept();
      return;
    }
    if (unread > this.limits.limitBytes) return this.stalled(`${megabytes(unread)} unread, over the limit of ${megabytes(this.limits.limitBytes)}`);
    this.timer ??= setTimeout(() => {
      this.timer = undefined;
      const left = this.output.writableLength;
      if (left > this.limits.highWaterBytes) this.stalled(`${megabytes(left)} unread after ${this.limits.graceMs / 1000} s`);
    }, this.limits.graceMs);
  }

  private kept(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private stalled(why: string): void {
    this.kept();
    if (!this.output.destroyed) this.close(why);
  }
}
