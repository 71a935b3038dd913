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
  // Gauss-Jordan; a term the samples cannot tell from the others (a 1-D curve's rows term is always 1) gets 0.
  const scale = Math.max(...a.map((row, i) => Math.abs(row[i])));
  const used = Array<boolean>(n).fill(false);
  for (let c = 0; c < n; c++) {
    let pivot = -1;
    for (let r = 0; r < n; r++) if (!used[r] && (pivot < 0 || Math.abs(a[r][c]) > Math.abs(a[pivot][c]))) pivot = r;
    if (pivot < 0 || Math.abs(a[pivot][c]) <= 1e-12 * scale) continue;
    used[pivot] = true;
    for (let r = 0; r < n; r++) {
      if (r === pivot) continue;
      const k = a[r][c] / a[pivot][c];
      for (let j = c; j <= n; j++) a[r][j] -= k * a[pivot][j];
    }
    a[pivot] = a[pivot].map((v) => v / a[pivot][c]);
    a[pivot].push(c);
  }
  const params = Array<number>(n).fill(0);
  for (const row of a) if (row.length > n + 1) params[row[n + 1]] = row[n];
  return params;
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
