import { errorStatusOf, fieldErrorsOf } from '../../../lib/api-errors';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { ACCOUNT_NAMESPACE } from '../account-namespace';
import type { ProofRefusal } from '../components/reauthentication-dialog';

/**
 * Turns a refused change into what the password dialog shows: the server's
 * reason under the password or code field, or else a toast (too many
 * attempts, or any other failure).
 */
export function useProofRefusal(failedTitle: string): (error: unknown) => ProofRefusal | undefined {
  const { t } = useNamespace(ACCOUNT_NAMESPACE);
  const toast = useToast();
  return (error) => {
    const reasons = fieldErrorsOf(error, ['password', 'code'] as const);
    if (reasons) return reasons;
    toast({
      title: failedTitle,
      description: errorStatusOf(error) === 429 ? t('login.tooManyAttempts') : undefined,
      variant: 'destructive',
    });
    return undefined;
  };
}
