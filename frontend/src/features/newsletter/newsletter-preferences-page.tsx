import { LOCALES, type Locale, type PreferencesDto } from '@agency/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Container from '@mui/material/Container';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import {
  useReadPreferencesMutation,
  useSavePreferencesMutation,
  useUnsubscribeEverywhereMutation,
} from './api/newsletter-api';
import { LinkOutcomePanel } from './components/link-outcome-panel';
import { PrivacyRequests } from './components/privacy-requests';
import { PublicListChoice } from './components/public-list-choice';
import { outcomeOfError, useNewsletterLink, type LinkOutcome } from './newsletter-link';
import { useNamespace } from '../../lib/translations';
import { NEWSLETTER_NAMESPACE } from './newsletter-namespace';

const FIELDSET_SX = { border: 0, m: 0, p: 0 };

/** The page's choices as the person edits them, from what the API read. */
function choicesOf(preferences: PreferencesDto): { listIds: string[]; locale: Locale } {
  return {
    listIds: preferences.lists.filter((list) => list.member).map((list) => list.id),
    locale: preferences.locale,
  };
}

/**
 * Reads the preferences the token names once, and says why when it cannot.
 * A test send's link names nobody: it says it was a test and reads nothing.
 */
function usePreferences(token: string | null, testSend: boolean) {
  const [read] = useReadPreferencesMutation();
  const [preferences, setPreferences] = useState<PreferencesDto | null>(null);
  const [outcome, setOutcome] = useState<LinkOutcome>(
    testSend ? 'test' : token ? 'working' : 'invalid',
  );
  useEffect(() => {
    if (!token || testSend) return;
    read({ token })
      .unwrap()
      .then((answer) => {
        setPreferences(answer);
        setOutcome('idle');
      })
      .catch((error: unknown) => setOutcome(outcomeOfError(error)));
  }, [read, token, testSend]);
  return { preferences, setPreferences, outcome, setOutcome };
}

/** The language of the person's mail, one radio button per language of the site. */
function LanguageChoice({
  locale,
  onChange,
}: {
  locale: Locale;
  onChange: (locale: Locale) => void;
}) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  return (
    <Stack component="fieldset" sx={FIELDSET_SX}>
      <Typography component="legend" variant="h6">
        {t('preferences.language')}
      </Typography>
      <RadioGroup
        name="locale"
        value={locale}
        onChange={(event) => onChange(event.target.value as Locale)}
      >
        {LOCALES.map((option) => (
          <FormControlLabel
            key={option}
            value={option}
            control={<Radio />}
            label={t(`preferences.languages.${option}`)}
          />
        ))}
      </RadioGroup>
    </Stack>
  );
}

/** Leaving everything: the newsletter and every campaign, as the unsubscribe link does. */
function LeaveEverything({ disabled, onLeave }: { disabled: boolean; onLeave: () => void }) {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  return (
    <Stack spacing={1}>
      <Typography variant="h6" component="h2">
        {t('preferences.leaveTitle')}
      </Typography>
      <Typography sx={{ color: 'text.secondary' }}>{t('preferences.leaveDescription')}</Typography>
      <Button variant="outlined" color="error" disabled={disabled} onClick={onLeave}>
        {t('preferences.leave')}
      </Button>
    </Stack>
  );
}

/**
 * Where a mail's "Manage your subscription" link lands: the public lists
 * the person receives, the language of their mail, leaving everything, and
 * asking for their data or its erasure.
 * Opening it changes nothing; each change is a button press.
 */
export function NewsletterPreferencesPage() {
  const { t } = useNamespace(NEWSLETTER_NAMESPACE);
  const { token, testSend } = useNewsletterLink();
  const { preferences, setPreferences, outcome, setOutcome } = usePreferences(token, testSend);
  const [save, { isLoading: saving }] = useSavePreferencesMutation();
  const [leave, { isLoading: leaving }] = useUnsubscribeEverywhereMutation();
  const [choices, setChoices] = useState<{ listIds: string[]; locale: Locale } | null>(null);
  const [notice, setNotice] = useState<'saved' | 'unsubscribed' | 'failed' | null>(null);

  if (!preferences || !token || outcome !== 'idle') {
    const key = `preferences.${outcome === 'idle' ? 'working' : outcome}`;
    return (
      <LinkOutcomePanel
        outcome={outcome}
        title={t(`${key}.title`)}
        description={t(`${key}.description`)}
      />
    );
  }
  const current = choices ?? choicesOf(preferences);
  const answered = (answer: PreferencesDto, done: 'saved' | 'unsubscribed') => {
    setPreferences(answer);
    setChoices(choicesOf(answer));
    setNotice(done);
  };
  const failed = (error: unknown) => {
    const next = outcomeOfError(error);
    if (next === 'expired' || next === 'invalid') setOutcome(next);
    else setNotice('failed');
  };
  const onSave = () =>
    save({ token, ...current })
      .unwrap()
      .then((answer) => answered(answer, 'saved'), failed);
  const onLeave = () =>
    leave({ token })
      .unwrap()
      .then((answer) => answered(answer, 'unsubscribed'), failed);

  return (
    <Container maxWidth="sm" sx={{ py: { xs: 6, md: 10 } }}>
      <Typography variant="h4" component="h1" gutterBottom>
        {t('preferences.title')}
      </Typography>
      <Typography sx={{ color: 'text.secondary', mb: 3 }}>
        {t('preferences.for', { email: preferences.email })}
      </Typography>
      <Stack spacing={4}>
        <PublicListChoice
          layout="section"
          legend={t('preferences.lists')}
          lists={preferences.lists}
          selected={current.listIds}
          onChange={(listIds) => setChoices({ ...current, listIds })}
        />
        <LanguageChoice
          locale={current.locale}
          onChange={(locale) => setChoices({ ...current, locale })}
        />
        <Button variant="contained" disabled={saving} onClick={() => void onSave()}>
          {t('preferences.save')}
        </Button>
        {notice ? (
          <Alert severity={notice === 'failed' ? 'error' : 'success'} role="status">
            {t(`preferences.notices.${notice}`)}
          </Alert>
        ) : null}
        <LeaveEverything
          disabled={leaving || preferences.subscription === 'unsubscribed'}
          onLeave={() => void onLeave()}
        />
        <PrivacyRequests token={token} onLinkRefused={setOutcome} />
      </Stack>
    </Container>
  );
}
