import type { TFunction } from 'i18next';

/**
 * A namespace's translate function, as `useNamespace` gives it: what a list's
 * module-level columns, cards and filters take to write their labels.
 */
export type Translate = TFunction;
