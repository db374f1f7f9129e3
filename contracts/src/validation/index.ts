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
