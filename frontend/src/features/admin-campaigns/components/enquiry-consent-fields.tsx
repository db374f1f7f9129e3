import { ENQUIRY_LAWFUL_BASES, LAWFUL_BASIS_PERMISSION, reachesEnquiries } from '@agency/contracts';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useAdminCan } from '../../../lib/admin-session';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useCampaignAudienceQuery } from '../api/campaigns-api';
import { CAMPAIGNS_NAMESPACE } from '../campaigns-namespace';
import type { CampaignSectionProps } from './campaign-form-sections';

/** The choice of "no basis" in the select, whose value must be a string. */
const NO_BASIS = '';

/**
 * For an audience with enquiry contacts: how many are left out because they
 * did not tick "send me news", and the lawful basis on which an admin may
 * mail them for this campaign only (others see it, disabled).
 */
export function EnquiryConsentFields({ formik, fields }: CampaignSectionProps) {
  const { t } = useNamespace(CAMPAIGNS_NAMESPACE);
  const format = useFormatters();
  const mayChoose = useAdminCan(LAWFUL_BASIS_PERMISSION);
  const { data: audience } = useCampaignAudienceQuery(formik.values.listIds);
  const { recipientType, enquiryLawfulBasis } = formik.values;
  if (!reachesEnquiries(recipientType)) return null;
  const people = audience ? format.number(audience.withoutConsent[recipientType]) : '…';
  const basisHint = t(`consent.basisHint.${enquiryLawfulBasis || 'none'}`);
  return (
    <>
      <Typography variant="body2" role="status" sx={{ gridColumn: '1 / -1' }}>
        {enquiryLawfulBasis
          ? t('consent.included', { people, basis: t(`consent.basis.${enquiryLawfulBasis}`) })
          : t('consent.leftOut', { people })}
      </Typography>
      <TextField
        {...fields.field('enquiryLawfulBasis', t('consent.basisLabel'))}
        select
        disabled={!mayChoose}
        helperText={
          fields.errorOf('enquiryLawfulBasis') ??
          (mayChoose ? basisHint : `${basisHint} ${t('consent.adminOnly')}`)
        }
        sx={{ gridColumn: '1 / -1' }}
      >
        <MenuItem value={NO_BASIS}>{t('consent.basis.none')}</MenuItem>
        {ENQUIRY_LAWFUL_BASES.map((basis) => (
          <MenuItem key={basis} value={basis}>
            {t(`consent.basis.${basis}`)}
          </MenuItem>
        ))}
      </TextField>
    </>
  );
}
