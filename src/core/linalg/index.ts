/** The numerical kernel: dense matrices, balancing, Hessenberg/Schur with reordering, SVD rank. */
export * from './dense.js';
export * from './balance.js';
export * from './schur.js';
export * from './svd.js';
