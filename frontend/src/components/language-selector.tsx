import { LOCALES, type Locale } from '@agency/contracts';
import LanguageIcon from '@mui/icons-material/Language';
import Box from '@mui/material/Box';
import { useId, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { toLocale, useLocale } from '../lib/locale';
import { openAddress } from '../lib/page-address';
import { localizePath } from '../lib/site-locale';
import { STORAGE_KEYS, writeStorage } from '../lib/storage';

export interface LanguageSelectorProps {
  fullWidth?: boolean;
  /**
   * On the public site each language has its own addresses: choosing one opens
   * this page's address in it. Elsewhere (admin) the page switches in place.
   */
  localizedAddresses?: boolean;
}

/**
 * A labelled native select: keyboard and screen-reader friendly on every
 * device, and far lighter than MUI's TextField, which sits in the first load.
 */
export function LanguageSelector({
  fullWidth = false,
  localizedAddresses = false,
}: LanguageSelectorProps) {
  const { t, i18n } = useTranslation();
  const locale = useLocale();
  const { pathname, search, hash } = useLocation();
  const id = `language-${useId()}`;

  const onChange = (event: ChangeEvent<HTMLSelectElement>) => {
    const next: Locale = toLocale(event.target.value);
    // Only a language the visitor chooses becomes their stored preference,
    // never one that a link's address happened to carry.
    writeStorage(STORAGE_KEYS.language, next);
    // The router's pathname is below the current language's prefix: the page's English address.
    if (localizedAddresses) openAddress(`${localizePath(pathname, next)}${search}${hash}`);
    else void i18n.changeLanguage(next);
  };

  return (
    <Box
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.75,
        width: fullWidth ? '100%' : 'auto',
        color: 'text.secondary',
      }}
    >
      <LanguageIcon fontSize="small" aria-hidden />
      <Box
        component="label"
        htmlFor={id}
        sx={{ fontSize: '0.875rem', fontWeight: 600, color: 'text.primary' }}
      >
        {t('language.label')}
      </Box>
      <Box
        component="select"
        id={id}
        value={locale}
        onChange={onChange}
        sx={{
          flexGrow: fullWidth ? 1 : 0,
          font: 'inherit',
          fontSize: '0.875rem',
          color: 'text.primary',
          bgcolor: 'background.paper',
          border: 1,
          borderColor: 'divider',
          borderRadius: 2,
          py: 0.75,
          px: 1,
          cursor: 'pointer',
          '&:hover': { borderColor: 'text.primary' },
        }}
      >
        {LOCALES.map((code) => (
          <option key={code} value={code} lang={code}>
            {t(`language.${code}`)}
          </option>
        ))}
      </Box>
    </Box>
  );
}
