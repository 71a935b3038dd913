import * as fs from 'fs';
import * as path from 'path';

/** The files below `folder` of a corpus export that `keep` accepts (given their path inside `folder`), relative to the root and sorted; none when the folder is absent. */
export function corpusFiles(root: string, folder: string, keep: (inside: string) => boolean): string[] {
  const dir = path.join(root, folder);
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { recursive: true })
    .map(String)
    .filter(keep)
    .map((f) => path.join(folder, f))
    .sort();
}
