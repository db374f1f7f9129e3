import BrushIcon from '@mui/icons-material/Brush';
import BusinessIcon from '@mui/icons-material/Business';
import CampaignIcon from '@mui/icons-material/Campaign';
import PhoneIphoneIcon from '@mui/icons-material/PhoneIphone';
import ShoppingCartIcon from '@mui/icons-material/ShoppingCart';
import TrendingUpIcon from '@mui/icons-material/TrendingUp';
import Container from '@mui/material/Container';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import type SvgIcon from '@mui/material/SvgIcon';
import { PageHeader } from '../../components/page-header';
import { RevealTile } from '../../components/reveal-tile';
import { useNamespace } from '../../lib/translations';
import { PORTFOLIO_NAMESPACE } from './portfolio-namespace';

interface Project {
  id: 'ecommerce' | 'social' | 'brand' | 'mobile' | 'meta' | 'corporate';
  Icon: typeof SvgIcon;
  gradient: string;
}

// Illustrated with gradients and icons: no third-party image host to wait for or trust.
const PROJECTS: readonly Project[] = [
  {
    id: 'ecommerce',
    Icon: ShoppingCartIcon,
    gradient: 'linear-gradient(135deg, #6d28d9, #db2777)',
  },
  { id: 'social', Icon: CampaignIcon, gradient: 'linear-gradient(135deg, #0ea5e9, #6366f1)' },
  { id: 'brand', Icon: BrushIcon, gradient: 'linear-gradient(135deg, #f59e0b, #ef4444)' },
  { id: 'mobile', Icon: PhoneIphoneIcon, gradient: 'linear-gradient(135deg, #10b981, #0ea5e9)' },
  { id: 'meta', Icon: TrendingUpIcon, gradient: 'linear-gradient(135deg, #2563eb, #7c3aed)' },
  { id: 'corporate', Icon: BusinessIcon, gradient: 'linear-gradient(135deg, #334155, #0f766e)' },
];

export function PortfolioPage() {
  const { t } = useNamespace(PORTFOLIO_NAMESPACE);

  return (
    <>
      <PageHeader title={t('portfolio.title')} subtitle={t('portfolio.subtitle')} />
      <Container sx={{ py: { xs: 6, md: 8 } }}>
        <Grid container spacing={3} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
          {PROJECTS.map(({ id, Icon, gradient }) => (
            <Grid key={id} size={{ xs: 12, sm: 6, md: 4 }} component="li">
              <RevealTile
                component="figure"
                captionComponent="figcaption"
                caption={
                  <>
                    <Typography variant="h6" component="h2">
                      {t(`portfolio.items.${id}.title`)}
                    </Typography>
                    <Typography variant="body2">
                      {t(`portfolio.items.${id}.description`)}
                    </Typography>
                  </>
                }
                sx={{
                  m: 0,
                  aspectRatio: '4 / 3',
                  borderRadius: 3,
                  background: gradient,
                  color: 'common.white',
                  display: 'flex',
                  alignItems: 'center',
                  justifyContent: 'center',
                }}
              >
                <Icon sx={{ fontSize: 72, opacity: 0.85 }} aria-hidden />
              </RevealTile>
            </Grid>
          ))}
        </Grid>
      </Container>
    </>
  );
}
