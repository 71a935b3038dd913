/**
 * The script a worker thread of `pto-vm run --jobs` starts (src/vm/parallel/run.ts): the build's bundle when it is
 * up to date, compiled from pto-vm's code cache as the tool itself starts (src/cli/launch.ts), else the compiled
 * modules. Either way it runs src/cli/jobs-worker.ts.
 */
import { loadBundle } from './launch';

let bundled: { work?: () => void } | undefined;
try {
  bundled = loadBundle('pto-vm')?.entry as { work?: () => void } | undefined;
} catch {
  // A damaged bundle: the modules it was built from still run.
}
// eslint-disable-next-line @typescript-eslint/no-require-imports -- the modules the bundle was built from
(bundled?.work ?? (require('./jobs-worker') as typeof import('./jobs-worker')).work)();
