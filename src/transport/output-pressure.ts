import type { Readable, Writable } from 'node:stream';

/** How much unread output may wait for a consumer before it counts as not keeping up. */
export const OUTPUT_HIGH_WATER_BYTES = 4 * 1024 * 1024;

/** A number of bytes as a person reads it: `4 MB`, `63.2 MB`. */
export const megabytes = (bytes: number): string => `${Number((bytes / (1024 * 1024)).toFixed(1))} MB`;

/**
 * Backpressure from the consumers to the agents. When a consumer does not read the bridge's output,
 * what the bridge writes piles up; once more than `highWaterBytes` wait in an output's buffer, every
 * gated agent stream is paused as its next chunk arrives, so the agent's own writes block (its stdout
 * pipe fills) instead of the bridge's memory growing; they resume when the outputs have drained. The
 * bridge on stdio has one output. (The agent host's agents serve every window, so none may hold them back: a
 * window that stops reading is closed instead, host/stalled-window.ts.)
 *
 * The streams are paused rather than piped through a gate: a Transform in the way cost each chunk an
 * agent sends two more streams' worth of work, on the path of every part (issue 16).
 */
export class OutputPressure {
  private readonly held = new Set<Readable>();
  private readonly outputs = new Set<Writable>();

  constructor(private readonly highWaterBytes: number) {}

  /** Holds the agents back while `output` is congested, until it closes. */
  watch(output: Writable): void {
    this.outputs.add(output);
    const release = () => this.release();
    output.on('drain', release);
    // An output that is gone will never drain: nothing is held back for it any more.
    output.once('close', () => {
      this.outputs.delete(output);
      release();
    });
    output.on('error', release);
  }

  private get congested(): boolean {
    for (const output of this.outputs) if (output.writableLength > this.highWaterBytes && !output.destroyed) return true;
    return false;
  }

  /** Pauses `source` whenever a chunk arrives while an output is congested. */
  gate(source: Readable): void {
    source.on('data', () => {
      if (!this.congested) return;
      source.pause();
      this.held.add(source);
    });
  }

  private release(): void {
    if (this.congested) return;
    for (const source of this.held) source.resume();
    this.held.clear();
  }
}
