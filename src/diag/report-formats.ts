import { DIAGNOSTICS, DiagnosticKind } from './catalog';
import { Diagnostic, spanLocation } from './diagnostic';
import { SourceFile, Span } from './source';

/**
 * The machine-readable forms of diagnostics (`pto-as --diagnostics-format json|sarif`): what the text form says,
 * with positions as numbers. Both give the end of a span as the position after its last character (SARIF's
 * endColumn), lines and columns 1-based.
 */

/** A diagnostic with the file its span is in. */
export interface FileDiagnostic {
  source: SourceFile;
  diagnostic: Diagnostic;
}

function position(source: SourceFile, span: Span) {
  const { line, column, endLine, endColumn } = spanLocation(source, span);
  return { file: source.path, line, column, end: { line: endLine, column: endColumn } };
}

/** `{"version": 1, "diagnostics": [{file, line, column, end: {line, column}, severity, code, message, notes}]}` */
export function diagnosticsJson(entries: readonly FileDiagnostic[]): string {
  const diagnostics = entries.map(({ source, diagnostic: d }) => ({
    ...position(source, d.span),
    severity: d.severity,
    code: d.code ?? null,
    message: d.message,
    notes: (d.notes ?? []).map((n) => ({ ...position(source, n.span), message: n.message })),
  }));
  return JSON.stringify({ version: 1, diagnostics }, null, 1) + '\n';
}

export const SARIF_SCHEMA = 'https://json.schemastore.org/sarif-2.1.0.json';

export interface SarifTool {
  name: string;
  version: string;
  /** The URI of docs/diagnostics.md; each rule's helpUri is its section there. */
  diagnosticsDoc: string;
}

/** The anchor GitHub and most Markdown renderers give the heading `### E0302 \`undefinedValue\` (error)`. */
export function diagnosticAnchor(name: string, kind: DiagnosticKind): string {
  return `${kind.code}-${name}-${kind.severity}`.toLowerCase();
}

/**
 * A SARIF 2.1.0 log of one run: every catalog code as a rule (id, name, summary, help link), each diagnostic a
 * result at its region, its notes as related locations. Severities map to SARIF levels (note -> "note").
 */
export function diagnosticsSarif(entries: readonly FileDiagnostic[], tool: SarifTool): string {
  const kinds = Object.entries(DIAGNOSTICS) as [string, DiagnosticKind][];
  const rules = kinds.map(([name, kind]) => ({
    id: kind.code,
    name,
    shortDescription: { text: kind.summary },
    helpUri: `${tool.diagnosticsDoc}#${diagnosticAnchor(name, kind)}`,
    defaultConfiguration: { level: kind.severity },
  }));
  const ruleIndex = new Map(kinds.map(([, kind], i) => [kind.code, i]));
  const location = (source: SourceFile, span: Span) => {
    const { line, column, endLine, endColumn } = spanLocation(source, span);
    return {
      physicalLocation: {
        artifactLocation: { uri: fileUri(source.path) },
        region: { startLine: line, startColumn: column, endLine, endColumn },
      },
    };
  };
  const results = entries.map(({ source, diagnostic: d }) => ({
    ...(d.code ? { ruleId: d.code, ruleIndex: ruleIndex.get(d.code) } : {}),
    level: d.severity,
    message: { text: d.message },
    locations: [location(source, d.span)],
    ...(d.notes?.length ? { relatedLocations: d.notes.map((n, i) => ({ id: i, message: { text: n.message }, ...location(source, n.span) })) } : {}),
  }));
  const log = {
    $schema: SARIF_SCHEMA,
    version: '2.1.0',
    runs: [{ tool: { driver: { name: tool.name, version: tool.version, rules } }, results }],
  };
  return JSON.stringify(log, null, 1) + '\n';
}

/** A file path as a URI reference: relative paths stay relative (to the working directory), segments escaped. */
function fileUri(path: string): string {
  const segments = path.split(/[\\/]/).map(encodeURIComponent);
  return /^([\\/]|[A-Za-z]:)/.test(path) ? `file://${path.startsWith('/') ? '' : '/'}${segments.join('/')}` : segments.join('/');
}
