import type { ReactNode } from 'react';
import { PageHeader } from '../../components/page-header';
import { ContactSection } from './components/contact-section';
import { useNamespace } from '../../lib/translations';
import { CONTACT_NAMESPACE } from './contact-namespace';

/** /contact: the same form and details as the home page's section, under a page title. */
export function ContactPage({ form }: { form: ReactNode }) {
  const { t } = useNamespace(CONTACT_NAMESPACE);
  return (
    <>
      <PageHeader title={t('contact.title')} subtitle={t('contact.subtitle')} />
      <ContactSection form={form} showHeading={false} />
    </>
  );
}
