import useMediaQuery from '@mui/material/useMediaQuery';

/** The spec's mobile breakpoint: under 768 px the admin area shows drawers and cards. */
export const ADMIN_MOBILE_QUERY = '(max-width:767.95px)';

export function useIsMobile(): boolean {
  // noSsr: the admin area is never prerendered, so the first render can use the real width.
  return useMediaQuery(ADMIN_MOBILE_QUERY, { noSsr: true });
}
