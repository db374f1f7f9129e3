import type { PersonDataExportDto, PrivacyLinkPurpose } from '@agency/contracts';
import Button from '@mui/material/Button';
import { useEffect, useState } from 'react';
import {
  useCheckPrivacyLinkMutation,
  useDownloadMyDataMutation,
  useEraseMyDataMutation,
} from './api/newsletter-api';
import { LinkOutcomePanel } from './components/link-outcome-panel';
import { PersonDataSummary } from './components/person-data-summary';
import { outcomeOfError, useNewsletterLink, type LinkOutcome } from './newsletter-link';
import { useNamespace } from '../../lib/translations';
import { NEWSLETTER_NAMESPACE } from './newsletter-namespace';

/**
 * Checks a mailed privacy link once, without spending it: the page then
 * offers its one action, or says why the link cannot be used.
 */
function usePrivacyLink(purpose: PrivacyLinkPurpose) {
  const { token } = useNewsletterLink();
  const [check] = useCheckPrivacyLinkMutation();
  const [email, setEmail] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<LinkOutcome>(token ? 'working' : 'invalid');
  useEffect(() => {
    if (!token) return;
    check({ token, purpose })
      .unwrap()
      .then((answer) => {
        setEmail(answer.email);
        setOutcome('idle');
      })
      .catch((error: unknown) => setOutcome(outcomeOfError(error)));
  }, [check, purpose, token]);
  return { token, email, outcome, setOutcome };
}

/** The page's text for where it stands: `privacyPage.<purpose>.<outcome>`. */
function usePanelText(purpose: PrivacyLinkPurpose, outcome: LinkOutcome, email: string | null) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const key = `privacyPage.${purpose}.${outcome}`;
  return { title: t(`${key}.title`), description: t(`${key}.description`, { email }) };
}

/**
 * A mailed "Download my data" link: one button saves the person's data as a
 * JSON file, spends the link, and shows the same records on the page to
 * read. Opening the page spends nothing, so a mail scanner that follows
 * links cannot use it up.
 */
export function NewsletterPrivacyDownloadPage() {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const { token, email, outcome, setOutcome } = usePrivacyLink('download');
  const [download, { isLoading }] = useDownloadMyDataMutation();
  const [data, setData] = useState<PersonDataExportDto | null>(null);
  const text = usePanelText('download', outcome, email);
  const onDownload = () => {
    if (!token) return;
    download({ token })
      .unwrap()
      .then(
        (held) => {
          setData(held);
          setOutcome('done');
        },
        (error: unknown) => setOutcome(outcomeOfError(error)),
      );
  };
  return (
    <>
      <LinkOutcomePanel outcome={outcome} {...text}>
        {outcome === 'idle' ? (
          <Button variant="contained" disabled={isLoading} onClick={onDownload}>
            {t('privacyPage.download.action')}
          </Button>
        ) : null}
      </LinkOutcomePanel>
      {outcome === 'done' && data ? <PersonDataSummary data={data} /> : null}
    </>
  );
}

/**
 * A mailed "Erase my data" link: the page states what erasure removes and
 * asks for a last confirmation; only that button starts it (and spends the
 * link). The worker's mail tells the person when it is done.
 */
export function NewsletterPrivacyErasurePage() {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const { token, email, outcome, setOutcome } = usePrivacyLink('erasure');
  const [erase, { isLoading }] = useEraseMyDataMutation();
  const text = usePanelText('erasure', outcome, email);
  const onErase = () => {
    if (!token) return;
    erase({ token })
      .unwrap()
      .then(
        () => setOutcome('done'),
        (error: unknown) => setOutcome(outcomeOfError(error)),
      );
  };
  return (
    <LinkOutcomePanel outcome={outcome} {...text}>
      {outcome === 'idle' ? (
        <Button variant="contained" color="error" disabled={isLoading} onClick={onErase}>
          {t('privacyPage.erasure.action')}
        </Button>
      ) : null}
    </LinkOutcomePanel>
  );
}
