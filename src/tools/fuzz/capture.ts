// What a tool wrote to a stream during one fuzz case, kept within bounds (src/tools/fuzz/worker.ts).

const HEAD = 48 * 1024;
const TAIL = 16 * 1024;

/** A line longer than this is judged by its start (`Capture.counted`). */
const LINE_START = 4096;

/**
 * Keeps the first HEAD and last TAIL characters written to a stream, and the total length; counts the lines of the
 * whole stream that `counts` accepts (a line written in pieces is joined first), the part left out included.
 */
export class Capture {
  head = '';
  tail = '';
  length = 0;
  counted = 0;
  /** The last line so far, not ended yet. */
  private partial = '';

  constructor(private readonly counts: (line: string) => boolean = () => false) {}

  write(chunk: unknown): void {
    const s = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) || chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : String(chunk);
    this.countLines(s);
    this.length += s.length;
    if (this.head.length < HEAD) {
      const room = HEAD - this.head.length;
      this.head += s.slice(0, room);
      if (s.length <= room) return;
      this.tail = (this.tail + s.slice(room)).slice(-TAIL);
    } else this.tail = (this.tail + s).slice(-TAIL);
  }

  /** The stream has ended: its last line counts even without a newline. */
  end(): void {
    if (this.partial !== '' && this.counts(this.partial)) this.counted++;
    this.partial = '';
  }

  private countLines(s: string): void {
    const text = this.partial + s;
    let from = 0;
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', from)) {
      if (this.counts(text.slice(from, nl))) this.counted++;
      from = nl + 1;
    }
    this.partial = text.slice(from, from + LINE_START);
  }

  /** The text kept: the head, and the tail from its first whole line. */
  text(): string {
    if (this.tail.length === 0) return this.head;
    const tail = this.tail.slice(this.tail.indexOf('\n') + 1);
    return `${this.head}\n[... ${this.length - HEAD - tail.length} characters left out ...]\n${tail}`;
  }
}
