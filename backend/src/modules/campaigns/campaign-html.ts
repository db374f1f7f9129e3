import sanitizeHtml from 'sanitize-html';

/**
 * What a campaign's HTML may hold: the formatting of an ordinary newsletter
 * (text, links, images, tables) and nothing that runs or loads silently:
 * no script, style, iframe, form, event handler or javascript:/data: URL.
 */
const CAMPAIGN_HTML: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'h1', 'h2', 'center', 'font'],
  allowedAttributes: {
    a: ['href', 'name', 'target', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    td: ['colspan', 'rowspan', 'align', 'valign', 'width'],
    th: ['colspan', 'rowspan', 'align', 'valign', 'width'],
    table: ['width', 'align', 'cellpadding', 'cellspacing', 'border'],
    font: ['color', 'size'],
    '*': ['align'],
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
