import { escapeHtml } from '../../mail/escape-html';

/**
 * Hidden the ways mail clients honour inline: `display:none` for browsers and
 * webmail, `mso-hide:all` for Outlook's Word engine, and no size, height or
 * colour for a client that drops both, so nothing shows and nothing can be
 * clicked.
 */
const HIDDEN =
  'display:none;mso-hide:all;max-height:0;max-width:0;overflow:hidden;opacity:0;font-size:0;line-height:0;color:transparent';

/**
 * A link no person can see or reach, for telling security scanners from
 * people: scanners follow every `href` of a mail, people only those they see,
 * so a click on it is a scanner's. It is out of sight (`HIDDEN`), out of the
 * accessibility tree (`aria-hidden`, hidden from display) and out of the
 * keyboard's tab order (`tabindex="-1"`), and it holds no text, so neither a
 * screen reader nor an accessibility checker meets it. The compile step puts
 * it in each language's HTML once, with the trap's tracking address (a slot),
 * never in the text part, where nothing can be hidden; its address is not a
 * link of the campaign's table, so it never shows in the report's links.
 */
export function trapLinkHtml(href: string): string {
  return [
    `<div aria-hidden="true" style="${HIDDEN}">`,
    `<a href="${escapeHtml(href)}" tabindex="-1" aria-hidden="true" style="${HIDDEN}"></a>`,
    '</div>',
  ].join('');
}
