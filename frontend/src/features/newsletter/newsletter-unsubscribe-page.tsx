import Button from '@mui/material/Button';
import { useState } from 'react';
import { useUnsubscribeNewsletterMutation } from './api/newsletter-api';
import { LinkOutcomePanel } from './components/link-outcome-panel';
import { outcomeOfError, useNewsletterLink, type LinkOutcome } from './newsletter-link';
import { useNamespace } from '../../lib/translations';
import { NEWSLETTER_NAMESPACE } from './newsletter-namespace';

/**
 * Where a mail's unsubscribe link lands. Opening it changes nothing (mail
 * scanners open links); the button unsubscribes at once. A test send's link
 * lands here too and says that it works for real recipients.
 */
export function NewsletterUnsubscribePage() {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const { token, testSend } = useNewsletterLink();
  const [unsubscribe] = useUnsubscribeNewsletterMutation();
  // A test send's link says so and offers nothing to press: it names no subscriber.
  const [outcome, setOutcome] = useState<LinkOutcome>(
    testSend ? 'test' : token ? 'idle' : 'invalid',
  );

  const leave = async () => {
    if (!token) return;
    setOutcome('working');
    try {
      await unsubscribe({ token }).unwrap();
      setOutcome('done');
    } catch (error) {
      setOutcome(outcomeOfError(error));
    }
  };

  const key = `unsubscribe.${outcome}`;
  const canLeave = outcome === 'idle' || outcome === 'working' || outcome === 'failed';
  return (
    <LinkOutcomePanel
      outcome={outcome}
      title={t(`${key}.title`)}
      description={t(`${key}.description`)}
    >
      {canLeave ? (
        <Button
          variant="contained"
          color="error"
          disabled={outcome === 'working'}
          onClick={() => void leave()}
        >
          {outcome === 'working' ? t('unsubscribing') : t('unsubscribeButton')}
        </Button>
      ) : null}
    </LinkOutcomePanel>
  );
}
