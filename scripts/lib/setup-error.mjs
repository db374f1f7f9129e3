// @ts-check

/**
 * A problem the user fixes by installing something or setting a variable.
 * Its message is one line that says exactly that; no stack trace is shown.
 */
export class SetupError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = 'SetupError';
  }
}

/**
 * Prints a fatal error the way a user should see it: one line for a
 * SetupError, the message plus stack for anything unexpected.
 * @param {unknown} error
 */
export function reportFatalError(error) {
  if (error instanceof SetupError) console.error(error.message);
  else if (error instanceof Error) console.error(error.stack ?? error.message);
  else console.error(String(error));
}
