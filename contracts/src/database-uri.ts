/**
 * The same MongoDB connection string, naming another database. Tests give
 * each file a database of its own and the e2e stack uses its own, all on one
 * shared server. Credentials, every host of a replica set and the options are
 * kept: `new URL()` cannot parse `host1:1,host2:2`, so this reads the
 * connection-string grammar itself (mongodb[+srv]://[auth@]hosts[/db][?options]).
 */
export function withDatabaseName(uri: string, databaseName: string): string {
  const match = /^(mongodb(?:\+srv)?:\/\/[^/?]+)(?:\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!match) throw new Error(`Not a MongoDB connection string: ${uri}`);
  return `${match[1]}/${databaseName}${match[2] ?? ''}`;
}
