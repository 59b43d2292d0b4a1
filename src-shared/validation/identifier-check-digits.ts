/**
 * The identifier schemes whose syntax and check digits Peppol BIS Billing 3.0 checks wherever an identifier names
 * its scheme (an electronic address, a party identifier, a legal registration id): the fatal rules PEPPOL-COMMON-R040
 * to R050 of PEPPOL-EN16931-UBL.sch (OpenPEPPOL/peppol-bis-invoice-3 @ 78d7f7df). Each check here computes exactly
 * what the Schematron function computes, so an identifier passes here if and only if it passes there:
 *
 * | ICD  | identifier                       | rule                | format and check                                  |
 * |------|----------------------------------|---------------------|---------------------------------------------------|
 * | 0088 | GLN (GS1 Global Location Number) | PEPPOL-COMMON-R040  | digits; GS1 mod 10 (weights 3,1,3,… from the right)|
 * | 0192 | Norwegian organisation number    | PEPPOL-COMMON-R041  | 9 digits; mod 11 (weights 3,2,7,6,5,4,3,2)         |
 * | 0184 | Danish CVR number                | PEPPOL-COMMON-R042  | 8 digits, or DK and 8 digits (no check digit)      |
 * | 0208 | Belgian enterprise number        | PEPPOL-COMMON-R043  | 10 digits; 97 − (first 8 mod 97) = last 2          |
 * | 0007 | Swedish organisation number      | PEPPOL-COMMON-R049  | 10 digits; Luhn                                    |
 * | 0151 | Australian Business Number       | PEPPOL-COMMON-R050  | 11 digits; weighted sum (first digit − 1) mod 89   |
 *
 * The Italian schemes (0201, 0210, 0211, R044–R047) are warnings there and are not refused here. Pure.
 */

export interface SchemeCheck {
  icd: string;
  rule: string;
  /** What a valid identifier looks like, for the message of a refusal. */
  expected: string;
  valid(identifier: string): boolean;
}

const digits = (s: string) => [...s].map((c) => c.charCodeAt(0) - 48);

/** GS1 check digit over any length of digits (the Schematron's u:gln does not fix the length). */
export function validGln(value: string): boolean {
  if (!/^[0-9]+$/.test(value)) return false;
  const body = digits(value.slice(0, -1)).reverse();
  const sum = body.reduce((s, d, i) => s + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === Number(value.at(-1));
}

/** Norwegian organisation number: mod 11 with weights 2..7 from the right; a remainder giving 10 is never valid. */
export function validNorwegianOrgNumber(value: string): boolean {
  if (!/^[0-9]{9}$/.test(value) || Number(value) === 0) return false;
  const body = digits(value.slice(0, -1)).reverse();
  const sum = body.reduce((s, d, i) => s + d * ((i % 6) + 2), 0);
  return (11 - (sum % 11)) % 11 === Number(value.at(-1));
}

export function validDanishCvr(value: string): boolean {
  return /^(DK)?[0-9]{8}$/.test(value);
}

export function validBelgianEnterpriseNumber(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  return 97 - (Number(value.slice(0, 8)) % 97) === Number(value.slice(8));
}

/** Swedish organisation number: 10 digits, the last the Luhn check digit of the first nine. */
export function validSwedishOrgNumber(value: string): boolean {
  if (!/^[0-9]{10}$/.test(value)) return false;
  const body = digits(value.slice(0, 9)).reverse();
  const sum = body.reduce((s, d, i) => s + (i % 2 === 0 ? ((d * 2) % 10) + Math.floor((d * 2) / 10) : d), 0);
  return (10 - (sum % 10)) % 10 === Number(value[9]);
}

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];

export function validAustralianBusinessNumber(value: string): boolean {
  if (!/^[0-9]{11}$/.test(value)) return false;
  const d = digits(value);
  d[0] = (d[0] ?? 0) - 1;
  return d.reduce((s, x, i) => s + x * (ABN_WEIGHTS[i] ?? 0), 0) % 89 === 0;
}

export const SCHEME_CHECKS: readonly SchemeCheck[] = [
  { icd: '0088', rule: 'PEPPOL-COMMON-R040', expected: 'a GLN with a valid GS1 check digit', valid: validGln },
  {
    icd: '0192',
    rule: 'PEPPOL-COMMON-R041',
    expected: 'a Norwegian organisation number: 9 digits with a valid check digit',
    valid: validNorwegianOrgNumber,
  },
  {
    icd: '0184',
    rule: 'PEPPOL-COMMON-R042',
    expected: 'a Danish CVR number: 8 digits, or DK and 8 digits',
    valid: validDanishCvr,
  },
  {
    icd: '0208',
    rule: 'PEPPOL-COMMON-R043',
    expected: 'a Belgian enterprise number: 10 digits with valid check digits (97 − the first 8 mod 97)',
    valid: validBelgianEnterpriseNumber,
  },
  {
    icd: '0007',
    rule: 'PEPPOL-COMMON-R049',
    expected: 'a Swedish organisation number: 10 digits with a valid check digit',
    valid: validSwedishOrgNumber,
  },
  {
    icd: '0151',
    rule: 'PEPPOL-COMMON-R050',
    expected: 'an Australian Business Number: 11 digits with valid check digits',
    valid: validAustralianBusinessNumber,
  },
];

const BY_ICD: ReadonlyMap<string, SchemeCheck> = new Map(SCHEME_CHECKS.map((c) => [c.icd, c]));

/**
 * The rule an identifier of scheme `icd` breaks, with the reason; null when it passes or its scheme has no check.
 * Whitespace around the value is ignored, as the Schematron's normalize-space() does.
 */
export function schemeIdentifierProblem(icd: string, identifier: string): { rule: string; reason: string } | null {
  const check = BY_ICD.get(icd);
  if (!check) return null;
  return check.valid(identifier.trim())
    ? null
    : { rule: check.rule, reason: `scheme ${icd} needs ${check.expected}; ${identifier.trim()} is not one` };
}
