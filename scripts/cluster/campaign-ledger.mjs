// @ts-check
/**
 * What the campaign ledger in the store says about each recipient of a
 * campaign's first round: how many delivery attempts its mail took. More
 * than one names a recipient who may have received the mail twice (the mail
 * was in flight when its worker died, or was retried after a 4xx).
 *
 * This is the one place the cluster test reads the ledger's storage (each
 * batch's outcome document, `campaignoutcomes`); the admin API pages it 100
 * at a time, too slowly for 20,000 recipients on the embedded store.
 */

/**
 * @param {import('mongodb').Db} db
 * @param {typeof import('mongoose')} mongoose
 * @param {string} campaignId
 * @returns {Promise<Map<string, number>>} attempts by recipient address (lower-cased)
 */
export async function ledgerAttempts(db, mongoose, campaignId) {
  const batches = await db
    .collection('campaignoutcomes')
    .find(
      { campaign: new mongoose.Types.ObjectId(campaignId), round: 1 },
      { projection: { 'outcomes.email': 1, 'outcomes.attempts': 1 } },
    )
    .toArray();
  return new Map(
    batches.flatMap((batch) =>
      /** @type {{ email: string, attempts?: number }[]} */ (batch.outcomes).map((line) => [
        String(line.email).toLowerCase(),
        Number(line.attempts ?? 1),
      ]),
    ),
  );
}
