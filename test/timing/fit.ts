/**
 * Least squares for the curves we fit to pto-isa's hardware measurements (the `measured` entries of
 * spec/costmodel/*.json): cycles = sum of params[i] * features[i], minimizing the squared relative error, since
 * the measurements span 100 to 10,000 cycles and the bar is relative (+-10%).
 */
export interface Sample {
  features: number[];
  cycles: number;
  /** Samples with the same key are one measured shape: held out together. */
  key: string;
}

export function fitRelative(samples: readonly Sample[]): number[] {
  const n = samples[0].features.length;
  // Normal equations of the rows features / cycles against 1.
  const a = Array.from({ length: n }, () => Array<number>(n + 1).fill(0));
  for (const s of samples) {
    const x = s.features.map((f) => f / s.cycles);
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) a[i][j] += x[i] * x[j];
      a[i][n] += x[i];
    }
  }
  for (let c = 0; c < n; c++) {
    const pivot = a.reduce((best, row, r) => (r >= c && Math.abs(row[c]) > Math.abs(a[best][c]) ? r : best), c);
    [a[c], a[pivot]] = [a[pivot], a[c]];
    if (Math.abs(a[c][c]) < 1e-300) throw new Error('the samples do not determine the curve');
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const k = a[r][c] / a[c][c];
      for (let j = c; j <= n; j++) a[r][j] -= k * a[c][j];
    }
  }
  return a.map((row, i) => row[n] / a[i][i]);
}

export const predict = (params: readonly number[], features: readonly number[]): number => params.reduce((sum, p, i) => sum + p * features[i], 0);

/**
 * Each measured shape predicted by the curve fitted on the others (leave one shape out): the relative errors, in
 * sample order. This is the accuracy to expect on a shape the fit has not seen.
 */
export function heldOutErrors(samples: readonly Sample[]): number[] {
  return samples.map((s) => {
    const params = fitRelative(samples.filter((o) => o.key !== s.key));
    return (predict(params, s.features) - s.cycles) / s.cycles;
  });
}
