export * from './messages';
export { message, text } from './fields';
