import {
  LOCALES,
  PUBLIC_LIST_FIELDS,
  directionOf,
  mailingListSchema,
  type Locale,
  type MailingListDto,
} from '@agency/contracts';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { TextFieldProps } from '@mui/material/TextField';
import { DialogFields } from '../../../components/admin/dialog-fields';
import { FormDialog } from '../../../components/admin/form-dialog';
import { useRecordForm } from '../../../components/admin/use-record-form';
import { saveRecord } from '../../../components/admin/use-record-submit';
import { useNamespace } from '../../../lib/translations';
import { useCreateMailingListMutation, useUpdateMailingListMutation } from '../api/audience-api';
import { AUDIENCE_NAMESPACE } from '../audience-namespace';

interface ListFormValues {
  name: string;
  description: string;
  public: boolean;
  nameEn: string;
  nameFr: string;
  nameAr: string;
  descriptionEn: string;
  descriptionFr: string;
  descriptionAr: string;
}

type TextFieldName = Exclude<keyof ListFormValues, 'public'>;

const LIST_FIELDS = [
  'name',
  'description',
  'public',
  'nameEn',
  'nameFr',
  'nameAr',
  'descriptionEn',
  'descriptionFr',
  'descriptionAr',
] as const;

const FIELDSET_SX = { border: 0, m: 0, p: 0 };

export interface ListDialogProps {
  list?: MailingListDto;
  onClose: () => void;
}

function initialValuesOf(list: MailingListDto | undefined): ListFormValues {
  const text = (locale: Locale) => list?.localized[locale];
  return {
    name: list?.name ?? '',
    description: list?.description ?? '',
    public: list?.public ?? false,
    nameEn: text('en')?.name ?? '',
    nameFr: text('fr')?.name ?? '',
    nameAr: text('ar')?.name ?? '',
    descriptionEn: text('en')?.description ?? '',
    descriptionFr: text('fr')?.description ?? '',
    descriptionAr: text('ar')?.description ?? '',
  };
}

/** One language's public name and description, typed in that language's direction. */
function LocalizedFields({
  locale,
  field,
}: {
  locale: Locale;
  field: (name: TextFieldName) => TextFieldProps;
}) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const names = PUBLIC_LIST_FIELDS[locale];
  const language = t(`dialog.languages.${locale}`);
  const htmlInput = { lang: locale, dir: directionOf(locale) };
  return (
    <Stack component="fieldset" spacing={2} sx={FIELDSET_SX}>
      <Typography component="legend" variant="subtitle2" sx={{ mb: 1 }}>
        {language}
      </Typography>
      <TextField
        {...field(names.name)}
        label={t('dialog.publicName', { language })}
        required
        slotProps={{ htmlInput }}
      />
      <TextField
        {...field(names.description)}
        label={t('dialog.publicDescription', { language })}
        multiline
        rows={2}
        slotProps={{ htmlInput }}
      />
    </Stack>
  );
}

/**
 * A mailing list's name and description, on create and on edit; a public
 * list also has a name and description in each language of the site, which
 * the newsletter sign-up and the preference page show.
 */
export function ListDialog({ list, onClose }: ListDialogProps) {
  const { t } = useNamespace(AUDIENCE_NAMESPACE);
  const [createList] = useCreateMailingListMutation();
  const [updateList] = useUpdateMailingListMutation();
  const { formik, field, dialog } = useRecordForm({
    record: list,
    namespace: AUDIENCE_NAMESPACE,
    fields: LIST_FIELDS,
    initialValues: initialValuesOf(list),
    validationSchema: mailingListSchema,
    save: (values: ListFormValues) =>
      saveRecord({
        record: list,
        values,
        schema: mailingListSchema,
        create: createList,
        update: updateList,
      }),
    onClose,
  });
  const textField = (name: TextFieldName) => field(name, '');

  return (
    <FormDialog {...dialog}>
      <DialogFields>
        <TextField {...field('name', t('dialog.name'))} required autoFocus />
        <TextField
          {...field('description', t('dialog.description'))}
          multiline
          rows={3}
          slotProps={{ input: { inputComponent: 'textarea' } }}
        />
        <FormControlLabel
          control={
            <Switch
              name="public"
              checked={formik.values.public}
              onChange={(event) => void formik.setFieldValue('public', event.target.checked)}
              slotProps={{ input: { 'aria-describedby': 'list-public-hint' } }}
            />
          }
          label={t('dialog.public')}
        />
        <Typography id="list-public-hint" variant="body2" color="text.secondary">
          {t('dialog.publicHint')}
        </Typography>
        {formik.values.public
          ? LOCALES.map((locale) => (
              <LocalizedFields key={locale} locale={locale} field={textField} />
            ))
          : null}
      </DialogFields>
    </FormDialog>
  );
}
