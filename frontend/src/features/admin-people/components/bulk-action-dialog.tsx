import {
  peopleBulkSchema,
  type PeopleBulkAction,
  type PeopleBulkInput,
  type MailingListDto,
} from '@agency/contracts';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useFormik } from 'formik';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/admin/confirm-dialog';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { useFormFields } from '../../../components/admin/use-form-fields';
import { apiErrorMessage } from '../../../lib/api-errors';
import { schemaValidator } from '../../../lib/form-validation';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { usePeopleBulkMutation } from '../api/people-api';
import { PEOPLE_NAMESPACE } from '../people-namespace';

interface BulkValues {
  listId: string;
  tag: string;
}

const TAGGING: readonly PeopleBulkAction[] = ['tag', 'untag'];

/** The request the form stands for: the same schema the API checks it with. */
function bulkInput(action: PeopleBulkAction, emails: readonly string[], values: BulkValues) {
  return {
    action,
    emails: [...emails],
    listId: values.listId,
    ...(TAGGING.includes(action) ? { tag: values.tag.trim() } : {}),
  };
}

/** Sends the action and says what it changed; the table refreshes by its tags. */
function useBulkSend(onDone: () => void) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const [send, { isLoading }] = usePeopleBulkMutation();
  const run = async (input: PeopleBulkInput) => {
    try {
      const result = await send(input).unwrap();
      toast({
        title: t('bulk.done', {
          changed: format.number(result.changed),
          unchanged: format.number(result.unchanged),
        }),
        variant: 'success',
      });
      onDone();
    } catch (error: unknown) {
      toast({
        title: t('bulk.failed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };
  return { run, busy: isLoading };
}

/** The form's state, checked by the API's schema; a valid submit hands over the request. */
function useBulkForm(
  action: PeopleBulkAction,
  emails: readonly string[],
  submit: (input: PeopleBulkInput) => unknown,
) {
  return useFormik<BulkValues>({
    initialValues: { listId: '', tag: '' },
    validate: schemaValidator(peopleBulkSchema, (values: BulkValues) =>
      bulkInput(action, emails, values),
    ),
    onSubmit: async (values) => {
      const input = await peopleBulkSchema.validate(bulkInput(action, emails, values), {
        stripUnknown: true,
      });
      await submit(input);
    },
  });
}

export interface BulkActionDialogProps {
  action: PeopleBulkAction;
  /** The chosen people's addresses (their normalised keys). */
  emails: readonly string[];
  lists: readonly MailingListDto[];
  onClose: () => void;
}

/**
 * One bulk action's form: a list (and a tag, to tag or untag), checked by
 * the API's schema. Removing from a list asks once more before it is done.
 */
export function BulkActionDialog({ action, emails, lists, onClose }: BulkActionDialogProps) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const { run, busy } = useBulkSend(onClose);
  const [toRemove, setToRemove] = useState<PeopleBulkInput | null>(null);
  const formik = useBulkForm(action, emails, (input) =>
    action === 'remove-from-list' ? setToRemove(input) : run(input),
  );
  const field = useFormFields(formik);
  const countText = useFormatters().number(emails.length);

  if (toRemove) {
    const listName = lists.find((list) => list.id === toRemove.listId)?.name ?? '';
    return (
      <ConfirmDialog
        open
        destructive
        busy={busy}
        title={t('bulk.confirmRemoveTitle', { list: listName })}
        description={t('bulk.confirmRemoveDescription', { formattedCount: countText })}
        confirmLabel={t('bulk.submit.remove-from-list')}
        onConfirm={() => void run(toRemove)}
        onClose={onClose}
      />
    );
  }
  return (
    <FormDialog
      open
      title={t(`bulk.titles.${action}`)}
      submitLabel={t(`bulk.submit.${action}`)}
      busy={busy || formik.isSubmitting}
      onSubmit={formik.handleSubmit}
      onClose={onClose}
    >
      <DialogFields>
        <TextField select required {...field('listId', t('bulk.list'))}>
          {lists.map((list) => (
            <MenuItem key={list.id} value={list.id}>
              {list.name}
            </MenuItem>
          ))}
        </TextField>
        {TAGGING.includes(action) ? (
          <TextField
            required
            {...field('tag', t('bulk.tag'))}
            helperText={field('tag', '').helperText ?? t('bulk.tagHelp')}
          />
        ) : null}
      </DialogFields>
    </FormDialog>
  );
}
