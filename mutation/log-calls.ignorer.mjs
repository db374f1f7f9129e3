// @ts-check
/**
 * A StrykerJS ignorer: no mutants inside a call to the logger. What a log
 * line says is for the people reading it; its mutants (an emptied message,
 * a dropped field) change no behaviour a test of the mail path can observe,
 * and each would still cost a run of the tests covering it.
 */
import { PluginKind, declareValuePlugin } from '@stryker-mutator/api/plugin';

const LEVELS = new Set(['trace', 'debug', 'info', 'warn', 'error', 'fatal']);
const LOGGER_NAMES = new Set(['logger', 'log']);

/**
 * `logger.info(...)`, `deps.logger.warn(...)`, `this.log.error(...)`.
 * @param {import('@babel/core').NodePath} path
 */
function isLogCall(path) {
  if (!path.isCallExpression()) return false;
  const callee = path.get('callee');
  if (!callee.isMemberExpression()) return false;
  const method = callee.get('property');
  if (!method.isIdentifier() || !LEVELS.has(method.node.name)) return false;
  const target = callee.get('object');
  if (target.isIdentifier()) return LOGGER_NAMES.has(target.node.name);
  if (target.isMemberExpression()) {
    const name = target.get('property');
    return name.isIdentifier() && LOGGER_NAMES.has(name.node.name);
  }
  return false;
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'log-calls', {
    /** @param {import('@babel/core').NodePath} path */
    shouldIgnore(path) {
      return isLogCall(path) ? 'a log line: what it says is not behaviour' : undefined;
    },
  }),
];
