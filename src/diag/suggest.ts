import { distance } from 'fastest-levenshtein';

/**
 * The known name closest to a mistyped one, for a "did you mean" hint, or undefined when none is close enough.
 * Close enough is what rustc and clang accept for a typo: an edit distance of at most a third of the name's length
 * (at least 1). Case is ignored in the comparison; a tie goes to the first candidate, so callers order them by
 * preference.
 */
export function closestName(name: string, candidates: Iterable<string>): string | undefined {
  const wanted = name.toLowerCase();
  const limit = Math.max(1, Math.floor(wanted.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    if (candidate === name) continue;
    const d = distance(wanted, candidate.toLowerCase());
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return best;
}

/** "; did you mean 'x'?" for a message, or nothing. */
export function didYouMean(name: string, candidates: Iterable<string>, quote = "'"): string {
  const best = closestName(name, candidates);
  return best === undefined ? '' : `; did you mean ${quote}${best}${quote}?`;
}
