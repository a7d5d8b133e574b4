import { Transform, Writable, type Readable } from 'node:stream';

/**
 * Backpressure from the consumer to the agents. When the consumer does not read the bridge's output,
 * what the bridge writes piles up; once more than `highWaterBytes` wait in the output's buffer, every
 * gated agent stream stops passing data until the output drains, so the agent's own writes block (its
 * stdout pipe fills) instead of the bridge's memory growing.
 *
 * The bridge writes through `writable`, which hands each message to the output at once: vscode-jsonrpc's
 * writer waits for each write's callback before the next, queueing the rest where no one can see them.
 */
export class OutputPressure {
  private waiting: (() => void)[] = [];
  readonly writable: Writable;

  constructor(
    private readonly output: Writable,
    private readonly highWaterBytes: number,
  ) {
    this.writable = new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        output.write(chunk);
        done();
      },
    });
    const release = () => this.release();
    output.on('drain', release);
    // An output that is gone will never drain: nothing is held back for it any more; the writer hears why.
    output.once('close', release);
    output.on('error', (error) => {
      release();
      this.writable.destroy(error);
    });
  }

  private get congested(): boolean {
    return this.output.writableLength > this.highWaterBytes && !this.output.destroyed;
  }

  /** `source`, passing each chunk on only while the output is not congested. */
  gate(source: Readable): Readable {
    const gated = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        if (!this.congested) done(null, chunk);
        else this.waiting.push(() => done(null, chunk));
      },
    });
    source.on('error', (error) => gated.destroy(error));
    return source.pipe(gated);
  }

  private release(): void {
    if (this.congested) return;
    for (const resume of this.waiting.splice(0)) resume();
  }
}
