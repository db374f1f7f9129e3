/** The agency's settings (mail sender, footers, time zone), read through a short cache. */
export * from './agency-settings.service';
/** What the last retention pass removed. */
export * from './retention-report';
