/**
 * Whether a file's text is text at all. The tools read a file as UTF-8, which keeps a NUL byte as U+0000 and turns
 * bytes that are not UTF-8 into U+FFFD: either one means a binary file (or one in another encoding, as UTF-16's NULs
 * show), which no statement of is worth reading and none of whose bytes should reach the terminal.
 */
export function notText(text: string): { at: number; message: string } | undefined {
  const nul = text.indexOf('\u0000');
  const replaced = text.indexOf('\uFFFD');
  if (nul < 0 && replaced < 0) return undefined;
  if (replaced < 0 || (nul >= 0 && nul < replaced)) return { at: nul, message: 'a NUL byte' };
  return { at: replaced, message: 'bytes that are not UTF-8 (read as U+FFFD)' };
}

/**
 * The text as a diagnostic may show it: every character but printable ASCII, tabs and line ends as `?`, each in its
 * place (positions are unchanged). For a file that is not text, whose lines would otherwise be echoed raw.
 */
export function printableText(text: string): string {
  return text.replace(/[^\t\n\r\x20-\x7e]/g, '?');
}
