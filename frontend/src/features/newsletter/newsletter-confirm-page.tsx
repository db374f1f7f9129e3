import Button from '@mui/material/Button';
import { useCallback, useEffect, useRef, useState } from 'react';
import { Link as RouterLink } from 'react-router-dom';
import { useConfirmNewsletterMutation } from './api/newsletter-api';
import { LinkOutcomePanel } from './components/link-outcome-panel';
import { outcomeOfError, useNewsletterLink, type LinkOutcome } from './newsletter-link';
import { useNamespace } from '../../lib/translations';
import { NEWSLETTER_NAMESPACE } from './newsletter-namespace';

/**
 * Where the confirmation mail's link lands: it confirms at once (opening the
 * link is the visitor's consent) and says so in the visitor's language.
 */
export function NewsletterConfirmPage() {
  const { t, i18n } = useNamespace(NEWSLETTER_NAMESPACE);
  const { token } = useNewsletterLink();
  const [confirm] = useConfirmNewsletterMutation();
  const [outcome, setOutcome] = useState<LinkOutcome>(token ? 'working' : 'invalid');
  const sent = useRef(false);

  const run = useCallback(async () => {
    if (!token) return;
    setOutcome('working');
    try {
      const result = await confirm({ token }).unwrap();
      if (i18n.resolvedLanguage !== result.locale) void i18n.changeLanguage(result.locale);
      setOutcome('done');
    } catch (error) {
      setOutcome(outcomeOfError(error));
    }
  }, [confirm, token, i18n]);

  useEffect(() => {
    // Once per page, even when React mounts effects twice in development.
    if (sent.current) return;
    sent.current = true;
    void run();
  }, [run]);

  const key = `confirm.${outcome}`;
  return (
    <LinkOutcomePanel
      outcome={outcome}
      title={t(`${key}.title`)}
      description={t(`${key}.description`)}
    >
      {outcome === 'expired' ? (
        <Button component={RouterLink} to="/#newsletter" variant="contained">
          {t('subscribeAgain')}
        </Button>
      ) : null}
      {outcome === 'failed' ? (
        <Button variant="contained" onClick={() => void run()}>
          {t('retry')}
        </Button>
      ) : null}
    </LinkOutcomePanel>
  );
}
