import { Image } from '@tiptap/extension-image';

/** Mail columns are 600 px wide: an image's width attribute never asks for more. */
export const MAIL_IMAGE_MAX_WIDTH = 600;
/** Shrinks with a narrow screen and keeps its proportions, in clients that read styles. */
export const MAIL_IMAGE_STYLE = 'max-width:100%;height:auto';

/**
 * An image as mail clients need it: a width attribute (Outlook sizes images
 * by their attributes alone, and a 1200 px variant must show at 600 px), the
 * style that lets it shrink on a phone, and its alt text.
 */
export const MailImage = Image.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      style: {
        default: MAIL_IMAGE_STYLE,
        parseHTML: () => MAIL_IMAGE_STYLE,
        renderHTML: () => ({ style: MAIL_IMAGE_STYLE }),
      },
    };
  },
});

/** The attributes of an inserted image: its size scaled down to the mail column when wider. */
export function mailImageAttributes(image: {
  url: string;
  alt: string;
  width?: number;
  height?: number;
}): Record<string, string | number | null> {
  const attributes: Record<string, string | number | null> = { src: image.url, alt: image.alt };
  if (image.width && image.width > 0) {
    const width = Math.min(image.width, MAIL_IMAGE_MAX_WIDTH);
    attributes.width = width;
    if (image.height && image.height > 0) {
      attributes.height = Math.round((image.height * width) / image.width);
    }
  }
  return attributes;
}
