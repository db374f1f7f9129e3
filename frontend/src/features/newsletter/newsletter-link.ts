import { TEST_SEND_LINK_PARAM, isLocale, type Locale } from '@agency/contracts';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';

/**
 * What a link from a newsletter mail tells its page, and what an answer means
 * there; `test`: the link came in a campaign's test send.
 */
export type LinkOutcome = 'idle' | 'working' | 'done' | 'expired' | 'invalid' | 'failed' | 'test';

/**
 * The token and language a mail link carries. The page switches to that
 * language at once, so the visitor reads it in the language they subscribed in.
 */
export function useNewsletterLink(): {
  token: string | null;
  language: Locale | null;
  /** The link came in a campaign's test send: it has no token and changes nothing. */
  testSend: boolean;
} {
  const [params] = useSearchParams();
  const { i18n } = useTranslation();
  const token = params.get('token');
  const requested = params.get('lang');
  const language = isLocale(requested) ? requested : null;

  useEffect(() => {
    if (language && i18n.resolvedLanguage !== language) void i18n.changeLanguage(language);
  }, [language, i18n]);

  return { token: token || null, language, testSend: params.get(TEST_SEND_LINK_PARAM) === '1' };
}

/** The HTTP status of a failed call, when it got an answer. */
export function statusOfError(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'status' in error
    ? error.status
    : undefined;
}

/** 410: the link is too old or the address left; 400/404: not one of ours. */
export function outcomeOfError(error: unknown): LinkOutcome {
  const status = statusOfError(error);
  if (status === 410) return 'expired';
  if (status === 400 || status === 404) return 'invalid';
  return 'failed';
}
