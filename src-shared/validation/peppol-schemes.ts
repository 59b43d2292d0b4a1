/**
 * Peppol participant identifier schemes (ISO/IEC 6523 International Code Designators, "ICD"), embedded as data.
 *
 * Source: OpenPeppol eDEC Code Lists, "Peppol Code Lists - Participant identifier schemes", version 9.7
 * (105 entries), as published by OpenPeppol AISBL in its code-list repository (edec-codelists,
 * publication/v9.7). Each entry: ICD, Peppol scheme id, country ("international" for global schemes), state, name.
 *
 * States: `active` schemes may be used; `deprecated` ones are still valid (existing registrations keep working
 * until their removal date) but should not be used for new registrations; `removed` ones are no longer valid.
 * A customer's peppolId is accepted when its scheme is active or deprecated, refused when removed or unknown, and
 * refused when its scheme is one whose check digits Peppol checks and they are wrong (identifier-check-digits.ts).
 *
 * To update: replace the table with the entries of a newer release and change the version above.
 */
import { schemeIdentifierProblem } from './identifier-check-digits';

export type PeppolSchemeState = 'active' | 'deprecated' | 'removed';

export interface PeppolScheme {
  icd: string;
  schemeId: string;
  country: string;
  state: PeppolSchemeState;
  name: string;
}

export const PEPPOL_CODE_LIST_VERSION = '9.7';

type Row = readonly [icd: string, schemeId: string, country: string, state: PeppolSchemeState, name: string];

const ROWS: readonly Row[] = [
  ['0002', 'FR:SIRENE', 'FR', 'active', 'System Information et Repertoire des Entreprise et des Etablissements: SIRENE'],
  ['0007', 'SE:ORGNR', 'SE', 'active', 'Organisationsnummer'],
  ['0009', 'FR:SIRET', 'FR', 'active', 'SIRET-CODE'],
  ['0037', 'FI:OVT', 'FI', 'removed', 'LY-tunnus'],
  ['0060', 'DUNS', 'international', 'active', 'Data Universal Numbering System (D-U-N-S Number)'],
  ['0088', 'GLN', 'international', 'active', 'Global Location Number'],
  ['0096', 'DK:P', 'DK', 'active', 'The Danish Business Authority - P-number (DK:P)'],
  ['0097', 'IT:FTI', 'IT', 'active', 'FTI - Ediforum Italia'],
  ['0106', 'NL:KVK', 'NL', 'active', 'Vereniging van Kamers van Koophandel en Fabrieken in Nederland, Scheme'],
  ['0130', 'EU:NAL', 'international', 'active', 'Directorates of the European Commission'],
  ['0135', 'IT:SIA', 'IT', 'active', 'SIA Object Identifiers'],
  ['0142', 'IT:SECETI', 'IT', 'active', 'SECETI Object Identifiers'],
  ['0151', 'AU:ABN', 'AU', 'active', 'Australian Business Number (ABN) Scheme'],
  ['0158', 'SK:ICO', 'SK', 'active', 'Identification number of economic subject (ICO)'],
  ['0183', 'CH:UIDB', 'CH', 'active', 'Swiss Unique Business Identification Number (UIDB)'],
  ['0184', 'DK:DIGST', 'DK', 'active', 'The Danish Business Authority - CVR-number (DK:CVR)'],
  ['0188', 'JP:SST', 'JP', 'active', 'Corporate Number of The Social Security and Tax Number System'],
  ['0190', 'NL:OINO', 'NL', 'active', 'Organisatie-identificatienummer (OIN)'],
  ['0191', 'EE:CC', 'EE', 'active', 'Company code'],
  ['0192', 'NO:ORG', 'NO', 'active', 'Organisasjonsnummer'],
  ['0193', 'UBLBE', 'BE', 'deprecated', 'UBL.BE Party Identifier'],
  ['0195', 'SG:UEN', 'SG', 'active', 'Singapore Nationwide E-Invoice Framework'],
  ['0196', 'IS:KTNR', 'IS', 'active', 'Icelandic identifier'],
  ['0198', 'DK:ERST', 'DK', 'active', 'The Danish Business Authority - SE-number (DK:SE)'],
  ['0199', 'LEI', 'international', 'active', 'Legal Entity Identifier (LEI)'],
  ['0200', 'LT:LEC', 'LT', 'active', 'Legal entity code'],
  ['0201', 'IT:CUUO', 'IT', 'active', 'Codice Univoco Unità Organizzativa iPA'],
  ['0204', 'DE:LWID', 'DE', 'active', 'Peppol-Leitweg-ID'],
  ['0205', 'IT:COD', 'IT', 'active', 'CODDEST'],
  ['0208', 'BE:EN', 'BE', 'active', "Numero d'entreprise / ondernemingsnummer / Unternehmensnummer"],
  ['0209', 'GS1', 'international', 'active', 'GS1 identification keys'],
  ['0210', 'IT:CFI', 'IT', 'active', 'CODICE FISCALE'],
  ['0211', 'IT:IVA', 'IT', 'active', 'PARTITA IVA'],
  ['0212', 'FI:ORG', 'FI', 'removed', 'Finnish Organization Identifier'],
  ['0213', 'FI:VAT', 'FI', 'removed', 'Finnish Organization Value Add Tax Identifier'],
  ['0215', 'FI:NSI', 'FI', 'removed', 'Net service ID'],
  ['0216', 'FI:OVT2', 'FI', 'active', 'OVTcode'],
  ['0218', 'LV:URN', 'LV', 'active', 'Unified registration number'],
  ['0221', 'JP:IIN', 'JP', 'active', 'The registered number of the qualified invoice issuer'],
  ['0225', 'FR:CTC', 'FR', 'active', 'FRCTC Electronic Address'],
  ['0230', 'MY:EIF', 'MY', 'active', 'National e-Invoicing Framework'],
  ['0235', 'AE:TIN', 'AE', 'active', 'UAE Tax Identification Number (TIN)'],
  ['0240', 'LU:MAT', 'LU', 'active', 'Register of legal persons'],
  ['0242', 'SPIS', 'international', 'active', 'OpenPeppol Service Provider Identification Scheme'],
  ['0244', 'NG:TID', 'NG', 'active', 'Tax Identification (Tax ID)'],
  ['0245', 'SK:DIC', 'SK', 'active', 'Tax identification number (DIČ)'],
  ['0246', 'DE:GEBA', 'DE', 'active', 'German Electronic Business Address'],
  ['0248', 'OM:VAT', 'OM', 'active', 'Oman Value Added Tax Identification Number (VATIN)'],
  ['9901', 'DK:CPR', 'DK', 'removed', 'Danish Ministry of the Interior and Health'],
  ['9902', 'DK:CVR', 'DK', 'removed', 'The Danish Commerce and Companies Agency'],
  ['9904', 'DK:SE', 'DK', 'removed', 'Danish Ministry of Taxation, Central Customs and Tax Administration'],
  ['9905', 'DK:VANS', 'DK', 'removed', 'Danish VANS providers'],
  ['9906', 'IT:VAT', 'IT', 'removed', 'Ufficio responsabile gestione partite IVA'],
  ['9907', 'IT:CF', 'IT', 'removed', 'TAX Authority'],
  ['9908', 'NO:ORGNR', 'NO', 'removed', 'Enhetsregisteret ved Bronnoysundregisterne'],
  ['9909', 'NO:VAT', 'NO', 'deprecated', 'Norwegian VAT number'],
  ['9910', 'HU:VAT', 'HU', 'active', 'Hungary VAT number'],
  ['9912', 'EU:VAT', 'international', 'deprecated', 'National ministries of Economy'],
  ['9913', 'EU:REID', 'international', 'active', 'Business Registers Network'],
  ['9914', 'AT:VAT', 'AT', 'active', 'Österreichische Umsatzsteuer-Identifikationsnummer'],
  ['9915', 'AT:GOV', 'AT', 'active', 'Österreichisches Verwaltungs bzw. Organisationskennzeichen'],
  ['9916', 'AT:CID', 'AT', 'deprecated', 'Firmenidentifikationsnummer der Statistik Austria'],
  ['9917', 'IS:KT', 'IS', 'deprecated', 'Icelandic National Registry'],
  ['9918', 'IBAN', 'international', 'active', 'SOCIETY FOR WORLDWIDE INTERBANK FINANCIAL, TELECOMMUNICATION S.W.I.F.T'],
  ['9919', 'AT:KUR', 'AT', 'active', 'Kennziffer des Unternehmensregisters'],
  ['9920', 'ES:VAT', 'ES', 'active', 'Agencia Española de Administración Tributaria'],
  ['9921', 'IT:IPA', 'IT', 'removed', 'Indice delle Pubbliche Amministrazioni'],
  ['9922', 'AD:VAT', 'AD', 'active', 'Andorra VAT number'],
  ['9923', 'AL:VAT', 'AL', 'active', 'Albania VAT number'],
  ['9924', 'BA:VAT', 'BA', 'active', 'Bosnia and Herzegovina VAT number'],
  ['9925', 'BE:VAT', 'BE', 'active', 'Belgium VAT number'],
  ['9926', 'BG:VAT', 'BG', 'active', 'Bulgaria VAT number'],
  ['9927', 'CH:VAT', 'CH', 'active', 'Switzerland VAT number'],
  ['9928', 'CY:VAT', 'CY', 'active', 'Cyprus VAT number'],
  ['9929', 'CZ:VAT', 'CZ', 'active', 'Czech Republic VAT number'],
  ['9930', 'DE:VAT', 'DE', 'active', 'Germany VAT number'],
  ['9931', 'EE:VAT', 'EE', 'active', 'Estonia VAT number'],
  ['9932', 'GB:VAT', 'GB', 'active', 'United Kingdom VAT number'],
  ['9933', 'GR:VAT', 'GR', 'active', 'Greece VAT number'],
  ['9934', 'HR:VAT', 'HR', 'active', 'Croatia VAT number'],
  ['9935', 'IE:VAT', 'IE', 'active', 'Ireland VAT number'],
  ['9936', 'LI:VAT', 'LI', 'active', 'Liechtenstein VAT number'],
  ['9937', 'LT:VAT', 'LT', 'active', 'Lithuania VAT number'],
  ['9938', 'LU:VAT', 'LU', 'active', 'Luxemburg VAT number'],
  ['9939', 'LV:VAT', 'LV', 'active', 'Latvia VAT number'],
  ['9940', 'MC:VAT', 'MC', 'active', 'Monaco VAT number'],
  ['9941', 'ME:VAT', 'ME', 'active', 'Montenegro VAT number'],
  ['9942', 'MK:VAT', 'MK', 'active', 'Macedonia, the former Yugoslav Republic of VAT number'],
  ['9943', 'MT:VAT', 'MT', 'active', 'Malta VAT number'],
  ['9944', 'NL:VAT', 'NL', 'active', 'Netherlands VAT number'],
  ['9945', 'PL:VAT', 'PL', 'active', 'Poland VAT number'],
  ['9946', 'PT:VAT', 'PT', 'active', 'Portugal VAT number'],
  ['9947', 'RO:VAT', 'RO', 'active', 'Romania VAT number'],
  ['9948', 'RS:VAT', 'RS', 'active', 'Serbia VAT number'],
  ['9949', 'SI:VAT', 'SI', 'active', 'Slovenia VAT number'],
  ['9950', 'SK:VAT', 'SK', 'active', 'Slovakia VAT number'],
  ['9951', 'SM:VAT', 'SM', 'active', 'San Marino VAT number'],
  ['9952', 'TR:VAT', 'TR', 'active', 'Turkey VAT number'],
  ['9953', 'VA:VAT', 'VA', 'active', 'Holy See (Vatican City State) VAT number'],
  ['9954', 'NL:OIN', 'NL', 'removed', "Dutch Originator's Identification Number"],
  ['9955', 'SE:VAT', 'SE', 'removed', 'Swedish VAT number'],
  ['9956', 'BE:CBE', 'BE', 'removed', 'Belgian Crossroad Bank of Enterprise number'],
  ['9957', 'FR:VAT', 'FR', 'active', 'French VAT number'],
  ['9958', 'DE:LID', 'DE', 'removed', 'Peppol-Leitweg-ID'],
  ['9959', 'US:EIN', 'US', 'active', 'US Employer ID Number'],
];

export const PEPPOL_SCHEMES: readonly PeppolScheme[] = ROWS.map(([icd, schemeId, country, state, name]) => ({
  icd,
  schemeId,
  country,
  state,
  name,
}));

const BY_ICD: ReadonlyMap<string, PeppolScheme> = new Map(PEPPOL_SCHEMES.map((s) => [s.icd, s]));

export function peppolScheme(icd: string): PeppolScheme | undefined {
  return BY_ICD.get(icd);
}

/**
 * The identifier part: 1 to 50 visible ASCII characters without spaces (Peppol participant identifier values are
 * at most 50 characters and case-insensitive; the scheme-specific syntax is not checked here).
 */
const IDENTIFIER = /^[\x21-\x7e]{1,50}$/;

export type PeppolIdCheck =
  | { ok: true; icd: string; identifier: string }
  /** `rule`: the Peppol rule (PEPPOL-COMMON-R040…) a wrong check digit breaks. */
  | { ok: false; reason: string; rule?: string };

/**
 * Checks `scheme:identifier`, where scheme is a four-digit ICD of a scheme that is active or deprecated, and the
 * identifier has the syntax and check digits Peppol demands of its scheme, where it demands any.
 */
export function checkPeppolId(value: string): PeppolIdCheck {
  const colon = value.indexOf(':');
  if (colon < 0) return { ok: false, reason: 'must have the form scheme:identifier, e.g. 0088:4000001000005' };
  const icd = value.slice(0, colon);
  const identifier = value.slice(colon + 1);
  if (!/^[0-9]{4}$/.test(icd)) return { ok: false, reason: `scheme "${icd}" is not a four-digit Peppol scheme code (ICD)` };
  const scheme = BY_ICD.get(icd);
  if (!scheme) return { ok: false, reason: `scheme ${icd} is not in the Peppol participant identifier scheme list` };
  if (scheme.state === 'removed') return { ok: false, reason: `scheme ${icd} (${scheme.schemeId}) has been removed from Peppol` };
  if (!IDENTIFIER.test(identifier)) {
    return { ok: false, reason: 'identifier must be 1 to 50 visible characters without spaces' };
  }
  const problem = schemeIdentifierProblem(icd, identifier);
  if (problem) return { ok: false, reason: problem.reason, rule: problem.rule };
  return { ok: true, icd, identifier };
}
