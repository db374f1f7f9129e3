import { testRecipientsSchema } from '@agency/contracts';
import DeleteIcon from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormik } from 'formik';
import { ValidationError } from 'yup';
import { LoadError } from '../../../components/admin/load-error';
import { apiErrorMessage, fieldErrorsOf, useErrorText } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import { useSaveTestRecipientsMutation, useTestRecipientsQuery } from '../api/test-recipients-api';
import { TEST_RECIPIENTS_NAMESPACE } from '../test-recipients-namespace';

/**
 * The list as it would be saved, checked by the API's own schema: the reason
 * for the entry at `index` (or for the list), or undefined when it passes.
 */
async function listProblem(entries: string[], index: number): Promise<unknown> {
  try {
    await testRecipientsSchema.validate({ entries }, { abortEarly: false });
    return undefined;
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const issues = error.inner.length > 0 ? error.inner : [error];
    const issue = issues.find(({ path }) => path === `entries[${index}]` || path === 'entries');
    return (issue ?? issues[0])?.message;
  }
}

/**
 * The list, its save (a toast either way; the reason to show under the field
 * when refused), the form that adds an entry, and the removal of one.
 */
function useTestRecipients() {
  const { t } = useNamespace(TEST_RECIPIENTS_NAMESPACE);
  const toast = useToast();
  const query = useTestRecipientsQuery(undefined);
  const [save, { isLoading: saving }] = useSaveTestRecipientsMutation();
  const entries = query.data?.entries ?? [];

  const saveList = async (next: string[], problemField: string) => {
    try {
      await save({ entries: next }).unwrap();
      toast({ title: t('saved'), variant: 'success' });
      return undefined;
    } catch (error) {
      const reasons = fieldErrorsOf(error, ['entries', problemField]);
      const reason = reasons ? Object.values(reasons)[0] : undefined;
      toast({
        title: t('failed'),
        description: reason ?? apiErrorMessage(error),
        variant: 'destructive',
      });
      return reason ?? t('failed');
    }
  };

  const formik = useFormik<{ entry: string }>({
    initialValues: { entry: '' },
    validateOnChange: false,
    validateOnBlur: false,
    validate: async ({ entry }) => {
      const next = [...entries, entry.trim().toLowerCase()];
      const problem = await listProblem(next, next.length - 1);
      return problem ? { entry: problem as string } : {};
    },
    onSubmit: async ({ entry }, helpers) => {
      const next = [...entries, entry.trim().toLowerCase()];
      const reason = await saveList(next, `entries[${next.length - 1}]`);
      if (reason) helpers.setErrors({ entry: reason });
      else helpers.resetForm();
    },
  });

  const remove = (entry: string) =>
    void saveList(
      entries.filter((kept) => kept !== entry),
      'entries',
    );

  return { query, entries, saving, formik, remove };
}

type TestRecipients = ReturnType<typeof useTestRecipients>;

/** The address or domain to add, and its button. */
function AddRecipientForm({
  formik,
  disabled,
}: {
  formik: TestRecipients['formik'];
  disabled: boolean;
}) {
  const { t } = useNamespace(TEST_RECIPIENTS_NAMESPACE);
  const errorText = useErrorText();
  const entryError = errorText(formik.errors.entry);
  return (
    <Stack
      component="form"
      noValidate
      onSubmit={formik.handleSubmit}
      direction={{ xs: 'column', sm: 'row' }}
      spacing={2}
      sx={{ alignItems: { sm: 'flex-start' } }}
      aria-labelledby="test-recipients-title"
    >
      <TextField
        id="test-recipient-entry"
        name="entry"
        label={t('entry')}
        value={formik.values.entry}
        onChange={formik.handleChange}
        error={Boolean(entryError)}
        helperText={entryError ?? t('entryHint')}
        autoComplete="off"
        inputMode="email"
        required
        fullWidth
        slotProps={{ htmlInput: { dir: 'ltr', spellCheck: false } }}
      />
      <Button
        type="submit"
        variant="contained"
        disabled={formik.isSubmitting || disabled}
        sx={{ mt: { sm: 1 }, flexShrink: 0 }}
      >
        {formik.isSubmitting ? t('adding') : t('add')}
      </Button>
    </Stack>
  );
}

interface RecipientsListProps {
  entries: string[];
  saving: boolean;
  remove: (entry: string) => void;
}

/** The saved entries, each with a button that removes it. */
function RecipientsList({ entries, saving, remove }: RecipientsListProps) {
  const { t } = useNamespace(TEST_RECIPIENTS_NAMESPACE);
  return (
    <List disablePadding aria-label={t('listLabel')}>
      {entries.map((entry) => (
        <ListItem
          key={entry}
          divider
          disableGutters
          secondaryAction={
            <IconButton
              edge="end"
              onClick={() => remove(entry)}
              disabled={saving}
              aria-label={t('remove', { entry })}
            >
              <DeleteIcon />
            </IconButton>
          }
        >
          <ListItemText primary={entry} slotProps={{ primary: { dir: 'ltr' } }} />
        </ListItem>
      ))}
    </List>
  );
}

/** The list, or what stands in for it: a load error, a placeholder, or "none yet". */
function RecipientsListState({ recipients }: { recipients: TestRecipients }) {
  const { t } = useNamespace(TEST_RECIPIENTS_NAMESPACE);
  const { data, isLoading, isError, refetch } = recipients.query;
  if (isError && !data) return <LoadError title={t('loadError')} onRetry={() => void refetch()} />;
  if (isLoading || !data) return <Skeleton height={64} aria-busy />;
  if (recipients.entries.length === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('empty')}
      </Typography>
    );
  }
  return (
    <RecipientsList
      entries={recipients.entries}
      saving={recipients.saving}
      remove={recipients.remove}
    />
  );
}

/**
 * Settings, for admins: whom test mail may go to besides the staff. Each
 * addition or removal saves the whole list at once, as the API takes it.
 */
export function TestRecipientsSettings() {
  const { t } = useNamespace(TEST_RECIPIENTS_NAMESPACE);
  const format = useFormatters();
  const recipients = useTestRecipients();
  const { data } = recipients.query;
  return (
    <Paper variant="outlined" sx={{ p: 3 }}>
      <Stack spacing={2}>
        <Typography variant="h6" component="h2" id="test-recipients-title">
          {t('title')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('description')}
        </Typography>
        <AddRecipientForm formik={recipients.formik} disabled={recipients.saving || !data} />
        <RecipientsListState recipients={recipients} />
        {data?.updatedAt && data.updatedBy ? (
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {t('updated', { username: data.updatedBy, date: format.dateTime(data.updatedAt) })}
          </Typography>
        ) : null}
      </Stack>
    </Paper>
  );
}
