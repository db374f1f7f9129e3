/** The dashboard's figures, kept in Redis on write, and their reconciliation with the store. */
export * from './kept-counts';
export * from './kept-audience';
export * from './stats-reconciliation';
export * from './kept-counts-erasure';
