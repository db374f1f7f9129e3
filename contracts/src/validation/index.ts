export * from './messages';
export {
  message,
  text,
  optionalText,
  oneOfText,
  jsonNumber,
  queryInteger,
  urlText,
  recordId,
  isRecordId,
  URL_MAX_LENGTH,
} from './fields';
export {
  DATE_YEAR_MIN,
  DATE_YEAR_MAX,
  calendarDate,
  calendarDateProblem,
  isoInstant,
  isoInstantProblem,
  isWithinDateYears,
} from './dates';
export {
  EMAIL_ADDRESS_MAX_LENGTH,
  isDeliverableAddress,
  emailAddress,
  optionalEmailAddress,
} from './email-address';
