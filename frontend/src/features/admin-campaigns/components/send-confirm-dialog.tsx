import type { CampaignDto } from '@agency/contracts';
import Skeleton from '@mui/material/Skeleton';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { LoadError } from '../../../components/admin/load-error';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { LOCALES } from '@agency/contracts';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import {
  useCampaignAudienceQuery,
  useCampaignLanguagesQuery,
  useCampaignSegmentsAudienceQuery,
} from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import { audienceReach } from './audience-reach';

export interface SendConfirmDialogProps {
  campaign: CampaignDto;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before a send, saying how many recipients the campaign will reach. */
export function SendConfirmDialog({ campaign, busy, onConfirm, onClose }: SendConfirmDialogProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const toSegments = campaign.recipientType === 'segments';
  const forLists = useCampaignAudienceQuery(campaign.listIds, {
    refetchOnMountOrArgChange: true,
    skip: toSegments,
  });
  const forSegments = useCampaignSegmentsAudienceQuery(campaign.segmentIds, {
    refetchOnMountOrArgChange: true,
    skip: !toSegments,
  });
  const { data: audience, isError, refetch } = toSegments ? forSegments : forLists;
  const { data: languages } = useCampaignLanguagesQuery(campaign.id);
  const recipients = t(`recipientsShort.${campaign.recipientType}`).toLowerCase();
  // What the send walks: those who consented, and the others under the campaign's lawful basis.
  const count = audience
    ? audienceReach(audience, campaign.recipientType, campaign.enquiryLawfulBasis)
    : undefined;

  let description;
  if (isError && !audience) {
    description = <LoadError title={t('confirmSend.countError')} onRetry={() => void refetch()} />;
  } else if (count === undefined) {
    description = <Skeleton aria-label={t('confirmSend.counting')} />;
  } else if (count === 0) {
    description = t('confirmSend.none', { recipients });
  } else {
    description = (
      <Stack spacing={1}>
        <span>{t('confirmSend.description', { people: format.number(count), recipients })}</span>
        {languages ? (
          <Typography component="span" variant="body2" sx={{ color: 'text.secondary' }}>
            {t('confirmSend.languages', {
              split: LOCALES.filter((locale) => languages.languages[locale] > 0)
                .map((locale) =>
                  t('confirmSend.language', {
                    people: format.number(languages.languages[locale]),
                    language: t(`languages.${locale}`),
                  }),
                )
                .join(' · '),
            })}
          </Typography>
        ) : null}
      </Stack>
    );
  }

  return (
    <ConfirmDialog
      open
      title={t('confirmSend.title', { name: campaign.name })}
      description={description}
      confirmLabel={t('confirmSend.confirm')}
      busy={busy}
      confirmDisabled={!count}
      onConfirm={onConfirm}
      onClose={onClose}
    />
  );
}
