import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { PageSection } from '../../../components/page-section';
import { useNamespace } from '../../../lib/translations';
import { FAQ_ITEMS } from '../home-content';
import { HOME_SECTIONS_NAMESPACE } from '../home-sections-namespace';

type FaqItem = (typeof FAQ_ITEMS)[number];

/** Spec 4: one answer open at a time; clicking the open question closes it. */
export function FaqSection() {
  const { t } = useNamespace(HOME_SECTIONS_NAMESPACE);
  const [open, setOpen] = useState<FaqItem | null>(null);

  return (
    <PageSection
      id="faq"
      headingId="faq-heading"
      title={t('faq.title')}
      subtitle={t('faq.subtitle')}
      maxWidth="md"
    >
      {FAQ_ITEMS.map((item) => (
        <Accordion
          key={item}
          expanded={open === item}
          onChange={() => setOpen((current) => (current === item ? null : item))}
          disableGutters
          variant="outlined"
          slotProps={{ heading: { component: 'h3' }, transition: { unmountOnExit: false } }}
          sx={{ mb: 1.5, borderRadius: 2, '&::before': { display: 'none' } }}
        >
          <AccordionSummary
            id={`faq-${item}-question`}
            aria-controls={`faq-${item}-answer`}
            expandIcon={<ExpandMoreIcon />}
          >
            <Typography sx={{ fontWeight: 600 }}>{t(`faq.items.${item}.question`)}</Typography>
          </AccordionSummary>
          <AccordionDetails>
            <Typography sx={{ color: 'text.secondary' }}>
              {t(`faq.items.${item}.answer`)}
            </Typography>
          </AccordionDetails>
        </Accordion>
      ))}
    </PageSection>
  );
}
