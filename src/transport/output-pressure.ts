import type { Readable, Writable } from 'node:stream';

/**
 * Backpressure from the consumer to the agents. When the consumer does not read the bridge's output,
 * what the bridge writes piles up; once more than `highWaterBytes` wait in the output's buffer, every
 * gated agent stream is paused as its next chunk arrives, so the agent's own writes block (its stdout
 * pipe fills) instead of the bridge's memory growing; they resume when the output has drained.
 *
 * The streams are paused rather than piped through a gate: a Transform in the way cost each chunk an
 * agent sends two more streams' worth of work, on the path of every part (issue 16).
 */
export class OutputPressure {
  private readonly held = new Set<Readable>();

  constructor(
    private readonly output: Writable,
    private readonly highWaterBytes: number,
  ) {
    const release = () => this.release();
    output.on('drain', release);
    // An output that is gone will never drain: nothing is held back for it any more.
    output.once('close', release);
    output.on('error', release);
  }

  private get congested(): boolean {
    return this.output.writableLength > this.highWaterBytes && !this.output.destroyed;
  }

  /** Pauses `source` whenever a chunk arrives while the output is congested. */
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
