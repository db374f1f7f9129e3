import useMediaQuery from '@mui/material/useMediaQuery';
import { REDUCED_MOTION_QUERY } from './motion';

/**
 * For rendering: whether the visitor asked for less motion, re-rendering when
 * that changes. The first render of prerendered HTML reads "no" as the server
 * did, then the real setting (so hydration matches). A module of its own:
 * what imports lib/motion.ts (the first load) does not need MUI's media queries.
 */
export function usePrefersReducedMotion(): boolean {
  return useMediaQuery(REDUCED_MOTION_QUERY);
}
