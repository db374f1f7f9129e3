import {
  IMPORT_FIELDS,
  importStartSchema,
  type ImportDto,
  type ImportField,
} from '@agency/contracts';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useFormik, type FormikErrors } from 'formik';
import { useState } from 'react';
import { ValidationError } from 'yup';
import { useFormFields } from '../../../components/admin/use-form-fields';
import { apiErrorMessage, fieldErrorsOf } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useCancelImportMutation,
  useMailingListsQuery,
  useStartImportMutation,
} from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

/** The form holds text: a column's index, or '' for a field not imported. */
type MappingValues = Record<ImportField, string> & { listId: string; hasHeader: boolean };

function toInput(values: MappingValues) {
  const mapping: Partial<Record<ImportField, number>> = {};
  for (const field of IMPORT_FIELDS) {
    if (values[field] !== '') mapping[field] = Number(values[field]);
  }
  // No list chosen is a missing list, not a malformed one.
  return { listId: values.listId || undefined, hasHeader: values.hasHeader, mapping };
}

/** The contracts schema on what will be sent, its `mapping.<field>` reasons put under each field. */
async function validate(values: MappingValues): Promise<FormikErrors<MappingValues>> {
  try {
    await importStartSchema.validate(toInput(values), { abortEarly: false });
    return {};
  } catch (error: unknown) {
    if (!(error instanceof ValidationError)) throw error;
    const errors: Record<string, string> = {};
    for (const inner of error.inner) {
      const name = (inner.path ?? '').replace(/^mapping\./, '');
      if (name && !errors[name]) errors[name] = inner.message;
    }
    return errors as FormikErrors<MappingValues>;
  }
}

/** A select whose empty choice reads as text ("Not imported"), its label kept above it. */
const SHOW_EMPTY_CHOICE = { select: { displayEmpty: true }, inputLabel: { shrink: true } };

/** The lists a file can go into: a list being deleted takes no import. */
const LIST_CHOICES = { page: 1, pageSize: 100, sort: 'name', state: 'active' } as const;

/** Step two: the list to fill, which column feeds each field, and the first rows to check it by. */
export function ImportMapping({
  file,
  listId,
  onDiscarded,
}: {
  file: ImportDto;
  listId: string | undefined;
  onDiscarded: () => void;
}) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const lists = useMailingListsQuery(LIST_CHOICES);
  const [start] = useStartImportMutation();
  const [discard, { isLoading: discarding }] = useCancelImportMutation();
  const [hasHeaderShown] = useState(file.hasHeader);

  const initial = Object.fromEntries(
    IMPORT_FIELDS.map((field) => [field, String(file.suggestedMapping[field] ?? '')]),
  ) as Record<ImportField, string>;
  const formik = useFormik<MappingValues>({
    initialValues: { ...initial, listId: listId ?? '', hasHeader: file.hasHeader },
    validate,
    onSubmit: async (values, helpers) => {
      try {
        const body = await importStartSchema.validate(toInput(values), { stripUnknown: true });
        await start({ id: file.id, body }).unwrap();
      } catch (error: unknown) {
        const reasons = fieldErrorsOf(error, [
          'listId',
          ...IMPORT_FIELDS.map((f) => `mapping.${f}`),
        ]);
        if (reasons) {
          helpers.setErrors(
            Object.fromEntries(
              Object.entries(reasons).map(([name, reason]) => [
                name.replace(/^mapping\./, ''),
                reason,
              ]),
            ) as FormikErrors<MappingValues>,
          );
        }
        toast({
          title: t('import.startFailed'),
          description: apiErrorMessage(error),
          variant: 'destructive',
        });
      }
    },
  });
  const field = useFormFields(formik);
  const width = Math.max(file.columns.length, ...file.preview.map((row) => row.length));
  const columnNames = Array.from(
    { length: width },
    (_, index) => file.columns[index] ?? `${index + 1}`,
  );
  const listItems = lists.data?.items ?? [];

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <form noValidate onSubmit={formik.handleSubmit}>
        <Stack spacing={2.5}>
          <div>
            <Typography variant="h6" component="h2" sx={{ wordBreak: 'break-word' }}>
              {t('import.mappingHeading', { file: file.fileName })}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('import.rows', { count: file.rowCount, formatted: format.number(file.rowCount) })}
            </Typography>
          </div>
          <TextField
            {...field('listId', t('import.list'))}
            select
            required
            slotProps={SHOW_EMPTY_CHOICE}
          >
            <MenuItem value="">{t('import.selectList')}</MenuItem>
            {listItems.map((list) => (
              <MenuItem key={list.id} value={list.id}>
                {list.name}
              </MenuItem>
            ))}
          </TextField>
          {lists.data && listItems.length === 0 ? (
            <Typography role="alert" color="error">
              {t('import.noLists')}
            </Typography>
          ) : null}
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={2}
            useFlexGap
            sx={{ flexWrap: 'wrap' }}
          >
            {IMPORT_FIELDS.map((name) => (
              <TextField
                key={name}
                {...field(name, t(`import.fields.${name}`))}
                select
                required={name === 'email'}
                slotProps={SHOW_EMPTY_CHOICE}
                sx={{ minWidth: 170, flex: { sm: '1 1 170px' } }}
              >
                {name === 'email' ? null : <MenuItem value="">{t('import.notImported')}</MenuItem>}
                {columnNames.map((column, index) => (
                  <MenuItem key={index} value={String(index)}>
                    {column}
                  </MenuItem>
                ))}
              </TextField>
            ))}
          </Stack>
          {hasHeaderShown ? (
            <FormControlLabel
              control={
                <Checkbox
                  name="hasHeader"
                  checked={formik.values.hasHeader}
                  onChange={formik.handleChange}
                />
              }
              label={t('import.hasHeader')}
            />
          ) : null}
          <TableContainer sx={{ maxWidth: '100%', overflowX: 'auto' }}>
            <Table size="small" aria-label={t('import.previewLabel')}>
              <TableHead>
                <TableRow>
                  {columnNames.map((column, index) => (
                    <TableCell key={index} component="th" scope="col">
                      {column}
                    </TableCell>
                  ))}
                </TableRow>
              </TableHead>
              <TableBody>
                {file.preview.map((row, rowIndex) => (
                  <TableRow key={rowIndex}>
                    {columnNames.map((_, index) => (
                      <TableCell key={index} sx={{ whiteSpace: 'nowrap' }}>
                        {row[index] ?? ''}
                      </TableCell>
                    ))}
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1.5}>
            <Button type="submit" variant="contained" disabled={formik.isSubmitting}>
              {t('import.start')}
            </Button>
            <Button
              color="inherit"
              disabled={formik.isSubmitting || discarding}
              onClick={() => void discard(file.id).unwrap().then(onDiscarded, onDiscarded)}
            >
              {t('import.discard')}
            </Button>
          </Stack>
        </Stack>
      </form>
    </Paper>
  );
}
