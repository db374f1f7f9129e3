/** The agency's settings (mail sender, footers, time zone), read through a short cache. */
export * from './agency-settings.service';
