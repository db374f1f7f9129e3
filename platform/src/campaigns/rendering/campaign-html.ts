import sanitizeHtml from 'sanitize-html';

/**
 * CSS values a mail's inline styles may take: colours, lengths, keywords and
 * font lists. Nothing that loads or runs (`url(`, `expression(`, `@import`,
 * `javascript:`, `behavior`), and no escapes that could spell them.
 */
const SAFE_CSS_VALUE =
  /^(?!.*(?:url|expression|javascript|behavior|binding|import))[-#\w\s.,%'"()/]*$/i;

const STYLED_PROPERTIES = [
  'color',
  'background-color',
  'text-align',
  'vertical-align',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'line-height',
  'letter-spacing',
  'text-decoration',
  'text-transform',
  'display',
  'width',
  'max-width',
  'min-width',
  'height',
  'margin',
  'margin-top',
  'margin-bottom',
  'margin-left',
  'margin-right',
  'padding',
  'padding-top',
  'padding-bottom',
  'padding-left',
  'padding-right',
  'border',
  'border-top',
  'border-bottom',
  'border-left',
  'border-right',
  'border-radius',
  'border-collapse',
];

/**
 * What a campaign's HTML may hold: what the editor makes (headings, bold,
 * italic, lists, links, images by URL, buttons, dividers), the tables and
 * inline styles of mail layouts, and nothing that runs or loads silently: no
 * script, style sheet, iframe, form, event handler or javascript:/data: URL.
 */
const CAMPAIGN_HTML: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags,
    'img',
    'h1',
    'h2',
    'center',
    'font',
    'span',
    'div',
  ],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'title', 'rel', 'data-button'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan', 'align', 'valign', 'width', 'bgcolor', 'data-button', 'class'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'width', 'bgcolor'],
    table: [
      'width',
      'align',
      'cellpadding',
      'cellspacing',
      'border',
      'role',
      'bgcolor',
      'data-button',
    ],
    font: ['color', 'size'],
    '*': ['align', 'style', 'dir'],
  },
  allowedStyles: {
    '*': Object.fromEntries(STYLED_PROPERTIES.map((property) => [property, [SAFE_CSS_VALUE]])),
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: {
    a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }),
  },
};

export function sanitizeCampaignHtml(html: string): string {
  return sanitizeHtml(html, CAMPAIGN_HTML).trim();
}

const COLOUR_SLOT = /\{\{\s*(brandColor|backgroundColor|textColor)\s*\}\}/g;
const COLOUR_STAND_IN = /var\(--slot-(brandColor|backgroundColor|textColor)\)/g;

/**
 * A template's layout, sanitised like a campaign. Its colour slots stand in
 * inline styles (`background-color:{{brandColor}}`), which the style parser
 * would drop whole: they go through as a CSS variable and come back.
 */
export function sanitizeTemplateLayout(html: string): string {
  return sanitizeCampaignHtml(html.replace(COLOUR_SLOT, 'var(--slot-$1)')).replace(
    COLOUR_STAND_IN,
    '{{$1}}',
  );
}

/**
 * A layout once its parts are in, sanitised again as a whole: each part was
 * safe alone, and this pass keeps the mail free of event handlers and
 * script URLs even if a layout put a part where it changes the markup
 * around it. Nothing is restyled: the parts already carry their styles.
 */
export function sanitizeMailLayout(html: string): string {
  return sanitizeHtml(html, { ...CAMPAIGN_HTML, transformTags: {} }).trim();
}

/** A template's colours, as its schema checked them (`#rrggbb`). */
export interface MailColours {
  brandColor: string;
  textColor: string;
}

type Attributes = Record<string, string>;

/** Adds `style` before the element's own, so what the author set wins. */
function styled(style: string) {
  return (tagName: string, attribs: Attributes) => ({
    tagName,
    attribs: { ...attribs, style: attribs.style ? `${style};${attribs.style}` : style },
  });
}

/**
 * The editor's plain markup made ready for mail clients, which ignore style
 * sheets: each element gets its look as an inline style, in the template's
 * colours, and a button (a link in a one-cell table) its coloured cell. It is
 * sanitised on the way, so what reaches a mail is safe even if the store
 * held something else.
 */
export function emailSafeHtml(html: string, colours: MailColours): string {
  const { brandColor, textColor } = colours;
  const button = `display:inline-block;padding:12px 28px;font-size:16px;font-weight:bold;line-height:1.2;color:#ffffff;text-decoration:none;border-radius:6px;background-color:${brandColor}`;
  return sanitizeHtml(html, {
    ...CAMPAIGN_HTML,
    transformTags: {
      h1: styled(`margin:0 0 16px;font-size:28px;line-height:1.25;font-weight:bold;color:inherit`),
      h2: styled(
        `margin:24px 0 12px;font-size:22px;line-height:1.3;font-weight:bold;color:${brandColor}`,
      ),
      h3: styled(
        `margin:20px 0 8px;font-size:18px;line-height:1.35;font-weight:bold;color:${textColor}`,
      ),
      p: styled('margin:0 0 16px;font-size:16px;line-height:1.6'),
      ul: styled('margin:0 0 16px;padding:0 24px'),
      ol: styled('margin:0 0 16px;padding:0 24px'),
      li: styled('margin:0 0 6px;font-size:16px;line-height:1.6'),
      hr: styled('border:0;border-top:1px solid #e5e7eb;margin:24px 0;height:0'),
      img: styled('display:block;max-width:100%;height:auto;border:0'),
      blockquote: styled('margin:0 0 16px;padding:4px 16px;border-left:4px solid #e5e7eb'),
      table: (tagName, attribs) =>
        'data-button' in attribs
          ? {
              tagName,
              attribs: {
                ...attribs,
                cellpadding: '0',
                cellspacing: '0',
                border: '0',
                role: 'presentation',
                style: 'margin:8px 0 24px',
              },
            }
          : { tagName, attribs },
      td: (tagName, attribs) =>
        'data-button' in attribs
          ? {
              tagName,
              attribs: {
                ...attribs,
                bgcolor: brandColor,
                style: `border-radius:6px;background-color:${brandColor}`,
              },
            }
          : { tagName, attribs },
      a: (tagName, attribs) => ({
        tagName,
        attribs: {
          ...attribs,
          rel: 'noopener noreferrer',
          style:
            'data-button' in attribs ? button : `color:${brandColor};text-decoration:underline`,
        },
      }),
    },
  }).trim();
}

/**
 * A campaign's content as the public archive shows it: sanitised as the mail
 * is, and a link left without an address (the unsubscribe link, whose
 * address is a recipient's own) dropped with its words.
 */
export function sanitizeArchiveHtml(html: string): string {
  return sanitizeHtml(html, {
    ...CAMPAIGN_HTML,
    exclusiveFilter: (frame) => frame.tag === 'a' && !frame.attribs.href?.trim(),
  }).trim();
}
