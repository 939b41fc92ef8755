/** Shared value types of the core. Matrices at API boundaries are arrays of rows. */
export type Matrix = number[][];
export type Vector = number[];
/** A complex number as [re, im], the oracle's complex-list element. */
export type Complex = [number, number];
