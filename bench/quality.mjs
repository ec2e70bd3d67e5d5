// Shared measuring helpers for the benchmarks: PSNR between rasters, medians, timing, tables.
// Rasters are { width, height, data: RGBA bytes }, as in src/render/raster.ts.

/**
 * Peak signal-to-noise ratio in dB of `b` against `a` over the RGB channels, both composited
 * onto `background` (default black) by their alpha, so an unpainted pixel counts as the
 * background. Infinity when identical. Throws when the sizes differ.
 * The third argument is `[r, g, b]` or `{ background: [r, g, b] }`.
 */
export function psnr(a, b, background = [0, 0, 0]) {
  if (a.width !== b.width || a.height !== b.height) {
    throw new Error(`psnr: sizes differ, ${a.width}x${a.height} vs ${b.width}x${b.height}`);
  }
  const bg = Array.isArray(background) ? background : (background?.background ?? [0, 0, 0]);
  const [br, bgg, bb] = bg;
  const da = a.data;
  const db = b.data;
  let sum = 0;
  for (let i = 0; i < da.length; i += 4) {
    const aa = da[i + 3] / 255;
    const ab = db[i + 3] / 255;
    const r = da[i] * aa + br * (1 - aa) - (db[i] * ab + br * (1 - ab));
    const g = da[i + 1] * aa + bgg * (1 - aa) - (db[i + 1] * ab + bgg * (1 - ab));
    const bl = da[i + 2] * aa + bb * (1 - aa) - (db[i + 2] * ab + bb * (1 - ab));
    sum += r * r + g * g + bl * bl;
  }
  const mse = sum / ((da.length / 4) * 3);
  return mse === 0 ? Infinity : 10 * Math.log10((255 * 255) / mse);
}

/** The median of a list of numbers (mean of the middle two for an even count); NaN when empty. */
export function median(values) {
  const v = values.filter((x) => !Number.isNaN(x)).sort((x, y) => x - y);
  if (v.length === 0) return NaN;
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}

/**
 * Runs `fn` at least `minRuns` times and until `minMs` have passed (at most `maxRuns`), after
 * `warmup` untimed calls; `setup`, when given, runs untimed before each call and its value is
 * passed to `fn`. Returns { ms: median milliseconds, result: the last result }.
 */
export async function measure(fn, { minRuns = 3, maxRuns = 15, minMs = 300, warmup = 1, setup } = {}) {
  let result;
  for (let i = 0; i < warmup; i++) result = await fn(setup ? await setup() : undefined);
  const times = [];
  const start = performance.now();
  while (times.length < minRuns || (times.length < maxRuns && performance.now() - start < minMs)) {
    const input = setup ? await setup() : undefined;
    const t0 = performance.now();
    result = await fn(input);
    times.push(performance.now() - t0);
  }
  return { ms: median(times), result };
}

/** Formats rows (arrays of cells) as an aligned plain-text table, the first row a header. */
export function table(rows) {
  const widths = [];
  for (const row of rows) {
    for (const [i, c] of row.entries()) widths[i] = Math.max(widths[i] ?? 0, String(c).length);
  }
  const line = (row) =>
    row.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  const out = [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  ')];
  for (const row of rows.slice(1)) out.push(line(row));
  return out.join('\n');
}

/** A number with `digits` decimals, or '-' when missing. */
export function fmt(value, digits = 1) {
  if (value === undefined || value === null || Number.isNaN(value)) return '-';
  if (value === Infinity) return 'inf';
  return value.toFixed(digits);
}
