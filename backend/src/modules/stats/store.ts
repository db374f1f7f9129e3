// The module's surface without HTTP: what the worker may reach through src/store.ts.
export {
  COUNT_FIELDS,
  createKeptCounts,
  localDay,
  statsKeys,
  type KeptCounts,
  type StatsKeys,
} from './kept-counts';
export { reconcileStats, type FigureDrift, type ReconcileReport } from './stats-reconciliation';
