import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/page-header';
import { ContactSection } from './components/contact-section';

/** /contact: the same form and details as the home page's section, under a page title. */
export function ContactPage() {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t('contact.title')} subtitle={t('contact.subtitle')} />
      <ContactSection showHeading={false} />
    </>
  );
}
