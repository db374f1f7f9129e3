// @ts-check
/**
 * The environment of a MongoDB-wire server the scripts start. Built-ins only,
 * so the scripts' jest tests load it without the ESM packages services.mjs uses.
 *
 * FerretDB is a Go program: with Go's default GOGC of 100 its collector took
 * about a fifth of its CPU under a campaign (each document read or written
 * is decoded into short-lived values); at 400 its CPU per message fell by a
 * fifth to a quarter in bench:mail, for about 30 MB more memory. An
 * operator's own GOGC wins.
 * @param {'mongod' | 'ferretdb'} kind
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {NodeJS.ProcessEnv}
 */
export function mongoServerEnv(kind, env = process.env) {
  return kind === 'ferretdb' ? { GOGC: env.GOGC ?? '400' } : {};
}

/**
 * The environment test runs start their servers with: FerretDB at Go's
 * default GOGC. The timing tests compare two store paths within 1 ms, and at
 * 400 the rarer, longer collections made a known user's failed sign-in 1-5 ms
 * slower than an unknown one's in 3 of 5 runs (2 of 5 at the default, both
 * on a loaded machine).
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {NodeJS.ProcessEnv}
 */
export function testServerEnv(env = process.env) {
  return { ...env, GOGC: env.GOGC ?? '100' };
}
