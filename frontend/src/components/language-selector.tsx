import { LOCALES, type Locale } from '@agency/contracts';
import TextField from '@mui/material/TextField';
import { useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { toLocale, useLocale } from '../lib/locale';

export interface LanguageSelectorProps {
  fullWidth?: boolean;
}

/** A native select: keyboard and screen-reader friendly on every device without extra work. */
export function LanguageSelector({ fullWidth = false }: LanguageSelectorProps) {
  const { t, i18n } = useTranslation();
  const locale = useLocale();
  const id = useId();

  const onChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const next: Locale = toLocale(event.target.value);
    void i18n.changeLanguage(next);
  };

  return (
    <TextField
      id={`language-${id}`}
      select
      size="small"
      label={t('language.label')}
      value={locale}
      onChange={onChange}
      fullWidth={fullWidth}
      slotProps={{ select: { native: true }, inputLabel: { shrink: true } }}
      sx={{ minWidth: 130 }}
    >
      {LOCALES.map((code) => (
        <option key={code} value={code} lang={code}>
          {t(`language.${code}`)}
        </option>
      ))}
    </TextField>
  );
}
