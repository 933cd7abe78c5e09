import { type Kysely, sql } from 'kysely';

/**
 * PosAPI 3.0 forbids keeping a receipt's lottery number and QR data in any form but printed on
 * the receipt (decision 0033). A receipt no longer in force (replaced, refunded, voided) needs
 * them no more, and no payment log line may hold them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update ebarimt_receipts set lottery = null, qr_data = null
    where status <> 'issued' and (lottery is not null or qr_data is not null)`.execute(db);
  await sql`
    update payment_logs
    set response = jsonb_set(
      jsonb_set(response, '{lottery}', to_jsonb('(on the receipt only)'::text)),
      '{qrData}', to_jsonb('(on the receipt only)'::text))
    where current_process = 'ebarimt' and jsonb_typeof(response) = 'object'
      and (response ? 'lottery' or response ? 'qrData')`.execute(db);
}

export async function down(): Promise<void> {
  // What was erased is not restored.
}
