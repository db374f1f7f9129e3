import {
  SEGMENT_CONDITIONS_MAX,
  SEGMENT_FIELDS,
  SEGMENT_MATCHES,
  SEGMENT_OPS_OF_FIELD,
  type SegmentDto,
  type SegmentField,
  type SegmentOp,
} from '@agency/contracts';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import DeleteIcon from '@mui/icons-material/Delete';
import { useEffect, useState } from 'react';
import { optionItems } from '../../../components/admin/option-items';
import { apiErrorMessage } from '../../../lib/api-errors';
import { useFormatters } from '../../../lib/use-formatters';
import { useNamespace } from '../../../lib/translations';
import { useToast } from '../../../lib/use-toast';
import {
  useCreateSegmentMutation,
  useSegmentCountMutation,
  useUpdateSegmentMutation,
} from '../api/segments-api';
import { PEOPLE_NAMESPACE } from '../people-namespace';
import {
  choicesOf,
  conditionOn,
  draftOf,
  ruleOf,
  takesList,
  type DraftCondition,
  type DraftRule,
} from './segment-conditions';
import { useListNames } from './use-list-names';

/** A condition's value before anything is chosen: a list where several are picked. */
const emptyValue = (field: SegmentField, op: SegmentOp): string | string[] =>
  takesList(op) && (choicesOf(field) !== null || field === 'listIds') ? [] : '';

/** How long the builder waits after an edit before it asks for the count. */
export const SEGMENT_COUNT_DELAY_MS = 400;

interface ValueFieldProps {
  condition: DraftCondition;
  label: string;
  onChange: (value: string | string[]) => void;
}

/** The value of one condition: chosen from its field's values, a day, days, or tags typed. */
function ConditionValue({ condition, label, onChange }: ValueFieldProps) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const { lists } = useListNames();
  const { field, op, value } = condition;
  const choices =
    field === 'listIds'
      ? lists.map((list) => ({ value: list.id, label: list.name }))
      : choicesOf(field)?.map((choice) => ({
          value: choice,
          label: t(`segments.values.${field}.${choice}`, { defaultValue: choice }),
        }));
  if (choices) {
    return (
      <TextField
        select
        size="small"
        label={label}
        value={value}
        sx={{ minWidth: 180, flex: 1 }}
        slotProps={{ select: { multiple: takesList(op) } }}
        onChange={(event) => onChange(event.target.value as unknown as string | string[])}
      >
        {choices.map((choice) => (
          <MenuItem key={choice.value} value={choice.value}>
            {choice.label}
          </MenuItem>
        ))}
      </TextField>
    );
  }
  const type =
    op === 'withinLastDays' ? 'number' : op === 'before' || op === 'after' ? 'date' : 'text';
  return (
    <TextField
      size="small"
      label={label}
      type={type}
      value={value}
      helperText={field === 'tags' ? t('segments.tagsHint') : undefined}
      sx={{ minWidth: 180, flex: 1 }}
      slotProps={{ inputLabel: { shrink: true } }}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

interface ConditionRowProps {
  condition: DraftCondition;
  /** Its place, from 1: what its fields are named by. */
  number: number;
  removable: boolean;
  onChange: (next: DraftCondition) => void;
  onRemove: () => void;
}

/** One condition: its field, its test, its value, and a way to remove it. */
function ConditionRow({ condition, number, removable, onChange, onRemove }: ConditionRowProps) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  return (
    <Stack
      component="li"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      aria-label={t('segments.condition', { number })}
    >
      <TextField
        select
        size="small"
        label={t('segments.field', { number })}
        value={condition.field}
        sx={{ minWidth: 160 }}
        onChange={(event) => onChange(conditionOn(event.target.value as SegmentField))}
      >
        {optionItems(SEGMENT_FIELDS, (field) => t(`segments.fields.${field}`))}
      </TextField>
      <TextField
        select
        size="small"
        label={t('segments.op', { number })}
        value={condition.op}
        sx={{ minWidth: 140 }}
        onChange={(event) => {
          const op = event.target.value as SegmentOp;
          onChange({ ...condition, op, value: emptyValue(condition.field, op) });
        }}
      >
        {optionItems(SEGMENT_OPS_OF_FIELD[condition.field], (op) => t(`segments.ops.${op}`))}
      </TextField>
      <ConditionValue
        condition={condition}
        label={t('segments.value', { number })}
        onChange={(value) => onChange({ ...condition, value })}
      />
      <IconButton
        aria-label={t('segments.removeCondition', { number })}
        disabled={!removable}
        onClick={onRemove}
      >
        <DeleteIcon />
      </IconButton>
    </Stack>
  );
}

/** The rule's count, asked again a moment after each edit while the rule is valid. */
function useDebouncedCount(draft: DraftRule) {
  const [count, { data, reset }] = useSegmentCountMutation();
  const rule = ruleOf(draft);
  const key = JSON.stringify(rule);
  useEffect(() => {
    if (!rule) {
      reset();
      return undefined;
    }
    const timer = setTimeout(() => void count(rule), SEGMENT_COUNT_DELAY_MS);
    return () => clearTimeout(timer);
    // The rule is compared by its text: a new object with the same rule asks nothing.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
  return rule ? data : undefined;
}

export interface SegmentBuilderProps {
  /** The segment being edited; null: a new one. */
  segment: SegmentDto | null;
  onDone: () => void;
}

/** Name, all or any, the conditions, the count as they change, and save. */
export function SegmentBuilder({ segment, onDone }: SegmentBuilderProps) {
  const { t } = useNamespace(PEOPLE_NAMESPACE);
  const format = useFormatters();
  const toast = useToast();
  const [name, setName] = useState(segment?.name ?? '');
  const [draft, setDraft] = useState<DraftRule>(
    segment ? draftOf(segment.rule) : { match: 'all', conditions: [conditionOn('locale')] },
  );
  const counted = useDebouncedCount(draft);
  const [create, creating] = useCreateSegmentMutation();
  const [update, updating] = useUpdateSegmentMutation();
  const rule = ruleOf(draft);

  const change = (index: number, next: DraftCondition) =>
    setDraft({
      ...draft,
      conditions: draft.conditions.map((condition, at) => (at === index ? next : condition)),
    });
  const save = async () => {
    if (!rule) return;
    const body = { name: name.trim(), rule };
    try {
      await (segment ? update({ id: segment.id, ...body }) : create(body)).unwrap();
      toast({ title: t('segments.saved'), variant: 'success' });
      onDone();
    } catch (error: unknown) {
      toast({
        title: t('segments.saveFailed'),
        description: apiErrorMessage(error),
        variant: 'destructive',
      });
    }
  };

  return (
    <Stack component="section" spacing={2} aria-labelledby="segment-builder-title">
      <Typography id="segment-builder-title" variant="h6" component="h2">
        {segment ? t('segments.editTitle') : t('segments.newTitle')}
      </Typography>
      <TextField
        label={t('segments.name')}
        required
        value={name}
        onChange={(event) => setName(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 100 } }}
      />
      <TextField
        select
        label={t('segments.match')}
        value={draft.match}
        onChange={(event) =>
          setDraft({ ...draft, match: event.target.value as DraftRule['match'] })
        }
      >
        {optionItems(SEGMENT_MATCHES, (match) => t(`segments.matches.${match}`))}
      </TextField>
      <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {draft.conditions.map((condition, index) => (
          <ConditionRow
            key={index}
            condition={condition}
            number={index + 1}
            removable={draft.conditions.length > 1}
            onChange={(next) => change(index, next)}
            onRemove={() =>
              setDraft({ ...draft, conditions: draft.conditions.filter((_c, at) => at !== index) })
            }
          />
        ))}
      </Stack>
      <Button
        variant="outlined"
        sx={{ alignSelf: 'flex-start' }}
        disabled={draft.conditions.length >= SEGMENT_CONDITIONS_MAX}
        onClick={() =>
          setDraft({ ...draft, conditions: [...draft.conditions, conditionOn('tags')] })
        }
      >
        {t('segments.addCondition')}
      </Button>
      <Typography role="status" aria-live="polite">
        {counted
          ? t('segments.count', {
              matched: format.number(counted.matched),
              mailable: format.number(counted.mailable),
            })
          : t('segments.countPending')}
      </Typography>
      <Stack direction="row" spacing={1}>
        <Button
          variant="contained"
          disabled={!rule || name.trim() === '' || creating.isLoading || updating.isLoading}
          onClick={() => void save()}
        >
          {t('segments.save')}
        </Button>
        <Button onClick={onDone}>{t('segments.cancel')}</Button>
      </Stack>
    </Stack>
  );
}
