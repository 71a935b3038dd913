import { SourceFile, Span } from '../diag/source';
import { Module } from '../syntax/ast';

/** The AST as JSON, with spans as `line:col-line:col` (bigints as decimal strings). */
export function moduleToJson(module: Module, source: SourceFile): unknown {
  const where = (s: Span): string => {
    const a = source.position(s.start);
    const b = source.position(Math.max(s.start, s.end - 1));
    return `${a.line}:${a.col}-${b.line}:${b.col + 1}`;
  };
  return JSON.parse(
    JSON.stringify(module, function (this: unknown, key, value) {
      if (typeof value === 'bigint') return value.toString();
      // A node that is its own span (src/syntax/parse-context.ts, ownSpan) shows it as `span` alone, as the others do.
      if ((key === 'start' || key === 'end') && (this as { span?: unknown }).span === this) return undefined;
      if ((key === 'span' || key === 'nameSpan') && value && typeof value.start === 'number') return where(value as Span);
      return value;
    }),
  );
}
