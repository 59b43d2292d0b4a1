/**
 * The sizes past which a bank file's record or value is refused instead of read (docs/decisions/0171): a CSV record
 * or a QIF line of a real bank export holds a few hundred characters, a camt element's text at most 500 (the
 * schema's longest, AddtlNtryInf); 64 KiB is far past any of them and keeps every row the import plans and writes
 * small. Amounts and dates are looked at only up to AMOUNT_OR_DATE_CHARS: no amount or date is longer, and the
 * patterns that recognise them then never see more.
 */
export const MAX_RECORD_CHARS = 65_536;
export const AMOUNT_OR_DATE_CHARS = 64;
