import Grid from '@mui/material/Grid';
import { LatestContacts } from './latest-contacts';
import { ServiceDistribution } from './service-distribution';

/** The dashboard's Overview: the latest contacts and the services distribution. */
export function OverviewPanel() {
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 7 }}>
        <LatestContacts />
      </Grid>
      <Grid size={{ xs: 12, md: 5 }}>
        <ServiceDistribution />
      </Grid>
    </Grid>
  );
}
