import { IMPORT_FIELDS, type ImportDto } from '@agency/contracts';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import TextField, { type TextFieldProps } from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useFormFields } from '../../../components/admin/use-form-fields';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useCancelImportMutation, useMailingListsQuery } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';
import { useImportMappingForm, type MappingValues } from './import-mapping-form';
import { ImportPreviewTable } from './import-preview-table';

/** A select whose empty choice reads as text ("Not imported"), its label kept above it. */
const SHOW_EMPTY_CHOICE = { select: { displayEmpty: true }, inputLabel: { shrink: true } };

/** The lists a file can go into: a list being deleted takes no import. */
const LIST_CHOICES = { page: 1, pageSize: 100, sort: 'name', state: 'active' } as const;

type FieldProps = (name: keyof MappingValues & string, label: string) => TextFieldProps;

/** The list the file fills, and a warning when there is none to choose. */
function ListSelect({ field }: { field: FieldProps }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const lists = useMailingListsQuery(LIST_CHOICES);
  const listItems = lists.data?.items ?? [];
  return (
    <>
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
    </>
  );
}

/** One select per field naming the column that feeds it; only the email cannot be left out. */
function FieldColumnSelects({
  field,
  columnNames,
}: {
  field: FieldProps;
  columnNames: readonly string[];
}) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
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
  );
}

/** The file's name and row count above the form. */
function MappingHeading({ file }: { file: ImportDto }) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const format = useFormatters();
  return (
    <div>
      <Typography variant="h6" component="h2" sx={{ wordBreak: 'break-word' }}>
        {t('import.mappingHeading', { file: file.fileName })}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary' }}>
        {t('import.rows', { count: file.rowCount, formatted: format.number(file.rowCount) })}
      </Typography>
    </div>
  );
}

/** The column names to map from: the file's own, or a number for a column it does not name. */
function columnNamesOf(file: ImportDto): string[] {
  const width = Math.max(file.columns.length, ...file.preview.map((row) => row.length));
  return Array.from({ length: width }, (_, index) => file.columns[index] ?? `${index + 1}`);
}

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
  const [discard, { isLoading: discarding }] = useCancelImportMutation();
  const [hasHeaderShown] = useState(file.hasHeader);
  const formik = useImportMappingForm(file, listId);
  const field = useFormFields(formik);
  const columnNames = columnNamesOf(file);

  return (
    <Paper variant="outlined" sx={{ p: { xs: 2, sm: 3 } }}>
      <form noValidate onSubmit={formik.handleSubmit}>
        <Stack spacing={2.5}>
          <MappingHeading file={file} />
          <ListSelect field={field} />
          <FieldColumnSelects field={field} columnNames={columnNames} />
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
          <ImportPreviewTable columnNames={columnNames} rows={file.preview} />
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
