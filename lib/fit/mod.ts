/** Estimation: no-intercept OLS on paired deltas, HC0-HC3 and CR1 standard errors. */
export * from "../math/normal.ts";
export * from "./factor.ts";
export * from "./covariance.ts";
export * from "./ols.ts";
export * from "./tolerance.ts";
export * from "../math/rank.ts";
export * from "./point.ts";
