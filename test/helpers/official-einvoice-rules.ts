import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import type { EInvoiceFormat } from '../../src-shared/domain/einvoice/model';

/**
 * The official e-invoice rules, as their publishers release them, run over a document: CEN's EN 16931 validation
 * artefacts (UBL and CII XSLT, release 1.3.16), the Peppol BIS Billing 3.0 Schematron and KoSIT's XRechnung
 * Schematron, compiled to SaxonJS's SEF format (test/fixtures/einvoice-rules/README.md says from what, with which
 * versions and licences) and run by SaxonJS 2.7. Each produces SVRL; a failed assert flagged `fatal` (or without a
 * flag, or `error`) is a rejection, `warning` a warning.
 *
 * A compiled rule set is read, unzipped and parsed once per process, and the same object goes to every run, which
 * lets SaxonJS reuse what it prepared from it: measured on a three-line invoice, cen-ubl takes ~85 ms a run so,
 * ~210–300 ms when its file is read afresh for each run; over the 85 fixture documents of the round trip the official
 * rules add ~7 s (19–20 s without them, 26–27 s with, same machine and run).
 */

export const RULE_SETS = ['cen-ubl', 'cen-cii', 'peppol-ubl', 'xr-ubl', 'xr-cii'] as const;
export type RuleSet = (typeof RULE_SETS)[number];

/** What a receiver of each of our formats applies: EN 16931 in its syntax plus the CIUS's own rules. */
export const RULES_OF_FORMAT: Readonly<Record<EInvoiceFormat, readonly RuleSet[]>> = {
  'factur-x-en16931': ['cen-cii'],
  'factur-x-xrechnung': ['cen-cii', 'xr-cii'],
  'xrechnung-ubl': ['cen-ubl', 'xr-ubl'],
  'xrechnung-cii': ['cen-cii', 'xr-cii'],
  'peppol-bis-3': ['cen-ubl', 'peppol-ubl'],
};

export interface FailedAssert {
  set: RuleSet;
  id: string;
  flag: 'fatal' | 'warning';
  location: string;
  text: string;
}

export interface OfficialResult {
  fatal: FailedAssert[];
  warnings: FailedAssert[];
  /** Rules that applied to the document, per set; 0 means the document is not of the set's syntax. */
  fired: Partial<Record<RuleSet, number>>;
}

const DIR = path.resolve(__dirname, '../fixtures/einvoice-rules');

interface Saxon {
  transform(
    options: { stylesheetInternal: unknown; sourceText: string; destination: 'serialized' },
    mode: 'sync',
  ): { principalResult: string };
}

let saxon: Saxon | undefined;
const compiled = new Map<RuleSet, unknown>();

function stylesheet(set: RuleSet): unknown {
  let sef = compiled.get(set);
  if (sef === undefined) {
    sef = JSON.parse(gunzipSync(fs.readFileSync(path.join(DIR, `${set}.sef.json.gz`))).toString('utf8'));
    compiled.set(set, sef);
  }
  return sef;
}

const attr = (s: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(s)?.[1];

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** The SVRL of one rule set over `xml`, as failed asserts. */
export function runRuleSet(set: RuleSet, xml: string): { failed: FailedAssert[]; fired: number } {
  saxon ??= createRequire(__filename)('saxon-js') as Saxon;
  const svrl = saxon.transform(
    { stylesheetInternal: stylesheet(set), sourceText: xml, destination: 'serialized' },
    'sync',
  ).principalResult;
  const fired = (svrl.match(/<svrl:fired-rule\b/g) ?? []).length;
  const failed: FailedAssert[] = [];
  for (const m of svrl.matchAll(/<svrl:failed-assert\b([^>]*)>([\s\S]*?)<\/svrl:failed-assert>/g)) {
    const head = m[1] ?? '';
    const flag = attr(head, 'flag') ?? 'fatal';
    const text = (/<svrl:text[^>]*>([\s\S]*?)<\/svrl:text>/.exec(m[2] ?? '')?.[1] ?? '').replace(/<[^>]+>/g, '');
    failed.push({
      set,
      id: attr(head, 'id') ?? '(no id)',
      flag: flag === 'warning' || flag === 'information' ? 'warning' : 'fatal',
      location: unescapeXml(attr(head, 'location') ?? ''),
      text: unescapeXml(text).replace(/\s+/g, ' ').trim(),
    });
  }
  return { failed, fired };
}

/** Every rule set a receiver of `format` applies, over the document's XML (a hybrid's: the XML it carries). */
export function checkOfficially(xml: string, sets: readonly RuleSet[]): OfficialResult {
  const result: OfficialResult = { fatal: [], warnings: [], fired: {} };
  for (const set of sets) {
    const { failed, fired } = runRuleSet(set, xml);
    result.fired[set] = fired;
    if (fired === 0) {
      result.fatal.push({ set, id: 'NO-RULE-FIRED', flag: 'fatal', location: '/', text: `not a document of ${set}'s syntax` });
    }
    for (const f of failed) (f.flag === 'fatal' ? result.fatal : result.warnings).push(f);
  }
  return result;
}

/** A failed assert as one line (test messages). */
export const describeAssert = (f: FailedAssert) => `${f.set} ${f.flag} ${f.id} at ${f.location}: ${f.text}`;
