import type { ImportDto } from '@agency/contracts';
import { useState } from 'react';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useCancelImportMutation, useDownloadImportReportMutation } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

/** An import's cancel (asked first) and its error report's download, each toasting its failure. */
export function useImportCommands(progress: ImportDto) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const toast = useToast();
  const [asking, setAsking] = useState(false);
  const [cancel, { isLoading: cancelling }] = useCancelImportMutation();
  const [download, { isLoading: downloading }] = useDownloadImportReportMutation();

  const confirmCancel = async () => {
    try {
      await cancel(progress.id).unwrap();
      setAsking(false);
    } catch (error: unknown) {
      toast({
        title: t('import.cancelFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
  const downloadReport = async () => {
    try {
      await download(progress.id).unwrap();
    } catch (error: unknown) {
      toast({
        title: t('toasts.errorTitle'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
  return { asking, setAsking, cancelling, confirmCancel, downloading, downloadReport };
}
