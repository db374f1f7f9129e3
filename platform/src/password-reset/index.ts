/**
 * Password resets: the requests staff make and the one-use links the
 * worker mails. It alone reads and writes the password resets collection.
 */
export * from './password-reset.service';
export * from './password-reset-token';
