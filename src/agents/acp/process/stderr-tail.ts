/** The longest stderr line kept or logged, in characters; longer lines keep their end. */
const MAX_LINE = 1024;

/**
 * An agent's stderr, as log lines and its last few lines (to explain a crash), in bounded memory and
 * linear time. A line is what a terminal would show of it: after its last carriage return (a spinner
 * redraws one line), and at most its last MAX_LINE characters, however long the agent writes without a
 * newline.
 */
export class StderrTail {
  private readonly lines: string[] = [];
  private partial = '';

  constructor(
    private readonly keep: number,
    private readonly onLine: (line: string) => void,
  ) {}

  write(chunk: string): void {
    const pieces = chunk.split('\n');
    const last = pieces.pop() ?? '';
    for (const piece of pieces) {
      this.note(shown(this.partial + piece));
      this.partial = '';
    }
    this.partial = clip(this.partial + last);
  }

  end(): void {
    this.note(shown(this.partial));
    this.partial = '';
  }

  /** The last lines, oldest first (with the line still being written). */
  get last(): readonly string[] {
    const current = shown(this.partial);
    return current === '' ? this.lines : [...this.lines, current].slice(-this.keep);
  }

  private note(line: string): void {
    if (line === '') return;
    this.onLine(line);
    this.lines.push(line);
    if (this.lines.length > this.keep) this.lines.shift();
  }
}

function shown(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  return clip(text.slice(text.lastIndexOf('\r') + 1));
}

function clip(line: string): string {
  return line.length <= MAX_LINE ? line : `…${line.slice(-(MAX_LINE - 1))}`;
}
