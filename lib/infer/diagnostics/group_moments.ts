/**
 * The mean and sample variance of the values at a list of rows, with the
 * operations of simple-statistics' `mean` (its compensated Kahan-Babuska sum)
 * and `sampleVariance` (two passes, ddof 1) in their order, so the same bits,
 * read in place instead of from a copied list.
 *
 * @module
 */

/**
 * simple-statistics `mean` of values[rows[0]], values[rows[1]], ...
 *
 * @param values All values.
 * @param rows The rows to average (at least one).
 * @returns Their mean.
 */
export function rowsMean(values: Float64Array, rows: Int32Array): number {
  const count = rows.length;
  let sum = values[rows[0]!]!;
  let correction = 0;
  for (let t = 1; t < count; t++) {
    const v = values[rows[t]!]!;
    const transition = sum + v;
    if (Math.abs(sum) >= Math.abs(v)) correction += sum - transition + v;
    else correction += v - transition + sum;
    sum = transition;
  }
  return (sum + correction) / count;
}

/**
 * simple-statistics `mean` of every value (at least one).
 *
 * @param values The values.
 * @returns Their mean.
 */
export function valuesMean(values: Float64Array): number {
  const count = values.length;
  let sum = values[0]!;
  let correction = 0;
  for (let t = 1; t < count; t++) {
    const v = values[t]!;
    const transition = sum + v;
    if (Math.abs(sum) >= Math.abs(v)) correction += sum - transition + v;
    else correction += v - transition + sum;
    sum = transition;
  }
  return (sum + correction) / count;
}

/**
 * simple-statistics `sampleVariance` (ddof 1) of the values at rows, given
 * their {@linkcode rowsMean}.
 *
 * @param values All values.
 * @param rows The rows (at least two).
 * @param mean rowsMean(values, rows).
 * @returns sum (v - mean)^2 / (count - 1).
 */
export function rowsSampleVariance(values: Float64Array, rows: Int32Array, mean: number): number {
  let sum = 0;
  for (let t = 0; t < rows.length; t++) {
    const d = values[rows[t]!]! - mean;
    sum += d * d;
  }
  return sum / (rows.length - 1);
}
