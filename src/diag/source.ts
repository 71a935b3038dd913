/** A source file with a lazily built line index, so offsets turn into line:col only when a diagnostic needs it. */
export class SourceFile {
  private lineStarts: number[] | undefined;

  constructor(
    readonly path: string,
    readonly text: string,
  ) {}

  /** 1-based line and column of a character offset. */
  position(offset: number): { line: number; col: number } {
    const starts = this.starts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - starts[lo] + 1 };
  }

  /** The text of a 1-based line, without its newline. */
  lineText(line: number): string {
    const starts = this.starts();
    const start = starts[line - 1] ?? this.text.length;
    let end = starts[line] ?? this.text.length;
    while (end > start && (this.text[end - 1] === '\n' || this.text[end - 1] === '\r')) end--;
    return this.text.slice(start, end);
  }

  private starts(): number[] {
    if (!this.lineStarts) {
      const starts = [0];
      const text = this.text;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.lineStarts = starts;
    }
    return this.lineStarts;
  }
}

/** Half-open character range [start, end) in a SourceFile. */
export interface Span {
  start: number;
  end: number;
}

export const spanOf = (start: number, end: number): Span => ({ start, end });
