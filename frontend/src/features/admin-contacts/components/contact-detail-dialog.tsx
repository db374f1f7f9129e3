import { CONTACT_STATUSES, type ContactDetailDto, type ContactStatus } from '@agency/contracts';
import SwapHorizIcon from '@mui/icons-material/SwapHoriz';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { ADMIN_COMMON_NAMESPACE } from '../../../components/admin/admin-common-namespace';
import { ContactStatusChip } from '../../../components/admin/contact-status-chip';
import { LoadError } from '../../../components/admin/load-error';
import { optionItems } from '../../../components/admin/option-items';
import { StatusChip } from '../../../components/admin/status-chip';
import { ViewDialog } from '../../../components/admin/view-dialog';
import { ADMIN_PATHS } from '../../../lib/admin-paths';
import { useAdminCan } from '../../../lib/admin-session';
import { apiErrorMessage, errorStatusOf } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useContactDetailQuery,
  useConvertContactMutation,
  useSetContactStatusMutation,
} from '../api/contacts-api';
import { CONTACTS_NAMESPACE } from '../contacts-namespace';

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <Stack component="div" direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
      <Typography component="dt" sx={{ minWidth: 150, color: 'text.secondary', fontWeight: 600 }}>
        {term}
      </Typography>
      <Typography component="dd" sx={{ m: 0, wordBreak: 'break-word' }}>
        {children}
      </Typography>
    </Stack>
  );
}

function MailDelivery({ contact }: { contact: ContactDetailDto }) {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const format = useFormatters();
  const colors = { pending: 'warning', sent: 'success', failed: 'error' } as const;
  let text: string;
  if (contact.mailState === 'sent') {
    text = contact.mailSentAt
      ? t('detail.mailSentAt', { time: format.dateTime(contact.mailSentAt) })
      : '';
  } else if (contact.mailState === 'failed') {
    text = contact.mailError
      ? t('detail.mailFailed', { reason: contact.mailError })
      : t('detail.mailFailedNoReason');
  } else {
    text = t('detail.mailPending');
  }
  return (
    <Stack spacing={0.5} sx={{ alignItems: 'flex-start' }}>
      <StatusChip
        label={tCommon(`mailState.${contact.mailState}`)}
        color={colors[contact.mailState]}
      />
      {text ? <span>{text}</span> : null}
    </Stack>
  );
}

function ContactDetails({ contact }: { contact: ContactDetailDto }) {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const { t: tShell } = useTranslation();
  const format = useFormatters();
  const toast = useToast();
  const canWrite = useAdminCan('contacts:write');
  const [setStatus, { isLoading: saving }] = useSetContactStatusMutation();
  const name = `${contact.firstName} ${contact.lastName}`;

  const changeStatus = async (status: ContactStatus) => {
    try {
      await setStatus({ id: contact.id, status }).unwrap();
      toast({
        title: t('detail.statusUpdated'),
        description: t('detail.statusUpdatedDescription', {
          name,
          status: tCommon(`contactStatus.${status}`, { defaultValue: status }),
        }),
        variant: 'success',
      });
    } catch (error: unknown) {
      toast({
        title: t('detail.statusFailed'),
        description: apiErrorMessage(error) ?? tCommon('errors.generic'),
        variant: 'destructive',
      });
    }
  };

  return (
    <Stack component="dl" spacing={1.5} sx={{ m: 0 }}>
      <Detail term={t('detail.email')}>
        <Link href={`mailto:${contact.email}`}>{contact.email}</Link>
      </Detail>
      <Detail term={t('detail.phone')}>
        {contact.phone ? (
          <Link href={`tel:${contact.phone}`}>{contact.phone}</Link>
        ) : (
          t('detail.noPhone')
        )}
      </Detail>
      <Detail term={t('detail.service')}>{tShell(`serviceNames.${contact.service}`)}</Detail>
      <Detail term={t('detail.message')}>
        <Typography component="span" sx={{ whiteSpace: 'pre-wrap' }}>
          {contact.message}
        </Typography>
      </Detail>
      <Detail term={t('detail.language')}>{t(`languages.${contact.locale}`)}</Detail>
      <Detail term={t('detail.received')}>{format.dateTime(contact.createdAt)}</Detail>
      <Detail term={t('detail.updated')}>{format.dateTime(contact.updatedAt)}</Detail>
      <Detail term={t('detail.status')}>
        {canWrite ? (
          <TextField
            select
            size="small"
            label={t('detail.status')}
            value={contact.status}
            disabled={saving}
            onChange={(event) => void changeStatus(event.target.value as ContactStatus)}
            sx={{ minWidth: 180, mt: { xs: 1, sm: 0 } }}
          >
            {optionItems(CONTACT_STATUSES, (status) =>
              tCommon(`contactStatus.${status}`, { defaultValue: status }),
            )}
          </TextField>
        ) : (
          <ContactStatusChip status={contact.status} />
        )}
      </Detail>
      <Detail term={t('detail.notification')}>
        <MailDelivery contact={contact} />
      </Detail>
    </Stack>
  );
}

export interface ContactDetailDialogProps {
  contactId: string;
  onClose: () => void;
}

/** Every field of one enquiry, its mail's delivery, its status and its conversion to a lead. */
export function ContactDetailDialog({ contactId, onClose }: ContactDetailDialogProps) {
  const { t } = useNamespace(CONTACTS_NAMESPACE);
  const { t: tCommon } = useNamespace(ADMIN_COMMON_NAMESPACE);
  const toast = useToast();
  const navigate = useNavigate();
  const canWrite = useAdminCan('contacts:write');
  const { data: contact, isLoading, isError, error, refetch } = useContactDetailQuery(contactId);
  const [convert, { isLoading: converting }] = useConvertContactMutation();
  const name = contact ? `${contact.firstName} ${contact.lastName}` : '';

  const convertToLead = async () => {
    if (!contact) return;
    try {
      const lead = await convert(contact.id).unwrap();
      toast({
        title: t('detail.convertedTitle'),
        description: t('detail.convertedDescription', { name }),
        variant: 'success',
      });
      void navigate(`${ADMIN_PATHS.leads}/${encodeURIComponent(lead.id)}`);
    } catch (caught: unknown) {
      toast({
        title: t('detail.convertFailed'),
        description: apiErrorMessage(caught) ?? tCommon('errors.generic'),
        variant: 'destructive',
      });
    }
  };

  let content;
  if (isError && !contact) {
    content =
      errorStatusOf(error) === 404 || errorStatusOf(error) === 400 ? (
        <Alert severity="warning">{t('detail.notFound')}</Alert>
      ) : (
        <LoadError title={t('detail.loadError')} onRetry={() => void refetch()} />
      );
  } else if (isLoading || !contact) {
    content = (
      <Stack spacing={1.5} aria-busy>
        {Array.from({ length: 6 }, (_, index) => (
          <Skeleton key={index} height={28} />
        ))}
      </Stack>
    );
  } else {
    content = <ContactDetails contact={contact} />;
  }

  return (
    <ViewDialog
      title={contact ? t('detail.title', { name }) : t('title')}
      maxWidth="md"
      actions={
        canWrite && contact ? (
          <Button
            startIcon={<SwapHorizIcon />}
            variant="outlined"
            onClick={() => void convertToLead()}
            disabled={converting}
          >
            {converting ? t('detail.converting') : t('detail.convert')}
          </Button>
        ) : null
      }
      onClose={onClose}
    >
      {content}
    </ViewDialog>
  );
}
