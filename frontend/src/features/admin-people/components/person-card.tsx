import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { RecordCard } from '../../../components/admin/record-card';
import { adminPersonPath } from '../../../lib/admin-paths';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import type { PersonRow } from '../api/people-api';
import { PEOPLE_NAMESPACE } from '../people-namespace';
import { fullName, listsText } from './person-columns';
import { ConsentChip, SourceChips, SuppressedChip } from './person-chips';

export interface PersonCardChoice {
  chosen: boolean;
  /** False once the most a bulk action takes are chosen (this one not among them). */
  available: boolean;
  onToggle: (person: PersonRow) => void;
}

/** One person as a phone shows it; tapping opens their page, the box chooses them for an action. */
export function PersonCard({
  person,
  listNames,
  choice,
}: {
  person: PersonRow;
  listNames: readonly string[];
  /** For a role that may act on people. */
  choice?: PersonCardChoice;
}) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  const name = fullName(person);
  return (
    <RecordCard
      title={person.email}
      badge={<ConsentChip consent={person.consent} />}
      to={adminPersonPath(person.key)}
      actions={
        choice ? (
          <FormControlLabel
            control={
              <Checkbox
                checked={choice.chosen}
                disabled={!choice.chosen && !choice.available}
                onChange={() => choice.onToggle(person)}
              />
            }
            label={t('select', { email: person.email })}
          />
        ) : undefined
      }
    >
      {name ? <Typography variant="body2">{name}</Typography> : null}
      <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
        {listsText(t, listNames, person.listIds.length)} · {format.dateTime(person.firstSeenAt)}
      </Typography>
      <Stack direction="row" spacing={0.5} useFlexGap sx={{ mt: 1, flexWrap: 'wrap' }}>
        <SourceChips sources={person.sources} />
        {person.suppressed ? <SuppressedChip suppressed /> : null}
      </Stack>
    </RecordCard>
  );
}
