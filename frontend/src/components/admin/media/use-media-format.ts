import type { MediaDto } from '@agency/contracts';
import { useMemo } from 'react';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { MEDIA_NAMESPACE } from './media-namespace';

const KB = 1024;
const MB = 1024 * 1024;

/** An image's dimensions and weight as the grid shows them, numbers in the page's language. */
export function useMediaFormat() {
  const { t } = useNamespace(MEDIA_NAMESPACE);
  const { number } = useFormatters();
  return useMemo(() => {
    const oneDecimal = (value: number) => number(Math.round(value * 10) / 10);
    return {
      dimensions: (item: Pick<MediaDto, 'width' | 'height'>) =>
        t('dimensions', { width: number(item.width), height: number(item.height) }),
      size: (bytes: number) =>
        bytes >= MB
          ? t('sizeMb', { size: oneDecimal(bytes / MB) })
          : t('sizeKb', { size: oneDecimal(Math.max(bytes / KB, 0.1)) }),
    };
  }, [t, number]);
}
