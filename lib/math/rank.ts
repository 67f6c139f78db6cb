/**
 * The one rank and singularity rule of gatelab's linear algebra.
 *
 * @module
 */

/**
 * A column is linearly dependent on the columns before it when the norm of
 * its residual on them is at most `RANK_TOLERANCE` times its own norm
 * (Householder QR: |r_jj| <= RANK_TOLERANCE ||x_j||).
 *
 * Computations on the normal equations X'X (Cholesky pivots, Gram-matrix
 * rank checks) see the square of that residual norm, and rounding leaves
 * about u ||x_j||^2 in an exactly dependent pivot, so they cannot resolve
 * relative residual norms much below sqrt(u) ~ 1e-8. The tolerance is set
 * where every method resolves it, so QR and Cholesky agree:
 * {@linkcode PIVOT_TOLERANCE} = RANK_TOLERANCE^2 on squared norms. For 0/1
 * designs an independent column's relative residual is at least about
 * 1/sqrt(n) (one row differs), far above 1e-5 for any realistic n.
 */
export const RANK_TOLERANCE = 1e-5;

/**
 * The same rule on squared norms: a Cholesky pivot (the squared residual
 * norm of column j on the earlier ones) at most `PIVOT_TOLERANCE` times the
 * diagonal entry ||x_j||^2 means dependent.
 */
export const PIVOT_TOLERANCE = RANK_TOLERANCE * RANK_TOLERANCE;
