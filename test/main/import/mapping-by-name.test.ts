import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { previewFile } from '../../../src-main/import/service';
import { findImportMapping } from '../../../src-main/store/import/mappings';
import { write } from '../../../src-main/store/write';
import { ImportRefused } from '../../../src-shared/domain/import/types';
import { books, importFile } from './helpers';

/** CSV mappings by header name (docs/decisions/0068): the preview's "column → field", saved mappings across reorders. */
const FIXTURES = path.resolve(__dirname, '../../fixtures/import/banks');

const HEADER =
  'Bezeichnung Auftragskonto;IBAN Auftragskonto;Buchungstag;Valutadatum;Name Zahlungsbeteiligter;Buchungstext;Verwendungszweck;Betrag;Waehrung';
const vrFile = (header: string, rows: string[], before = '') => Buffer.from(`${before}${header}\n${rows.join('\n')}\n`);

describe('CSV mapping by header name', () => {
  it('previews every column by its header with sample values and the field read from it', async () => {
    const b = books();
    const bytes = fs.readFileSync(path.join(FIXTURES, 'de-sparkasse-camt-v2.csv'));
    const { preview } = await previewFile(b.db, b.team, b.checking, bytes, { fileName: 'sparkasse.csv' });
    const by = (h: string) => preview.columns.find((c) => c.header === h);
    expect(preview.columns).toHaveLength(17);
    expect(by('Beguenstigter/Zahlungspflichtiger')).toEqual({
      index: 11,
      header: 'Beguenstigter/Zahlungspflichtiger',
      samples: ['EDEKA Center Nord', 'Atelier Duval SARL', 'Telekom Deutschland GmbH'],
      fields: ['counterparty'],
    });
    expect(by('Betrag')).toMatchObject({ fields: ['amount'], samples: ['-42,17', '1.250,00', '-39,95'] });
    expect(by('Buchungstag')).toMatchObject({ fields: ['date'] });
    expect(by('Auftragskonto')).toMatchObject({ fields: [], samples: ['DE89370400440532013000'] });
  });

  it('keeps a saved mapping working when the bank reorders its columns, adds one and a line above the header', async () => {
    const b = books();
    const first = vrFile(HEADER, [
      'Giro;DE02500105170648489890;02.03.2026;02.03.2026;Hausverwaltung Becker;Dauerauftrag;Miete März;-1.250,00;EUR',
      'Giro;DE02500105170648489890;06.03.2026;06.03.2026;Kunde Süd AG;Gutschrift;RE 2026-022;2.000,00;EUR',
    ]);
    const inferred = (await previewFile(b.db, b.team, b.checking, first, {})).preview.mapping!;
    // The person adds the posting text to the description and saves the mapping with the commit.
    const adjusted = { ...inferred, description: [{ index: 5, header: 'Buchungstext' }, ...inferred.description] };
    await importFile(b, b.checking, first, { mapping: adjusted, saveMappingAs: 'VR Giro' });

    const reordered = vrFile(
      'Buchungstag;Betrag;Waehrung;Verwendungszweck;Kategorie;Buchungstext;Name Zahlungsbeteiligter;Valutadatum;IBAN Auftragskonto;Bezeichnung Auftragskonto',
      [
        '02.04.2026;-1.250,00;EUR;Miete April;Miete;Dauerauftrag;Hausverwaltung Becker;02.04.2026;DE02500105170648489890;Giro',
        '09.04.2026;-59,50;EUR;Rechnung April;Telefon;Lastschrift;Vodafone GmbH;09.04.2026;DE02500105170648489890;Giro',
      ],
      'Umsätze Girokonto;;;;;;;;;\n',
    );
    const { preview } = await previewFile(b.db, b.team, b.checking, reordered, {});
    expect(preview.mappingName).toBe('VR Giro');
    expect(preview.notes.join(' ')).not.toMatch(/does not fit/);
    expect(preview.rows.map((r) => [r.date, r.amount, r.counterparty, r.description])).toEqual([
      ['2026-04-02', -1250, 'Hausverwaltung Becker', 'Dauerauftrag Miete April'],
      ['2026-04-09', -59.5, 'Vodafone GmbH', 'Lastschrift Rechnung April'],
    ]);
    // The preview shows where the columns are now.
    expect(preview.mapping).toMatchObject({ headerRow: 1, amount: { column: { index: 1, header: 'Betrag' } } });
  });

  it('reads a mapping saved before payer columns existed, by header even where its positions are stale', async () => {
    const b = books();
    const old = {
      delimiter: ';',
      headerRow: 0,
      firstDataRow: 1,
      date: { index: 0, header: 'Buchungstag' },
      dateFormat: 'DD.MM.YYYY',
      valueDate: null,
      amount: { kind: 'signed', column: { index: 1, header: 'Betrag' } },
      decimal: ',',
      invert: false,
      description: [{ index: 2, header: 'Verwendungszweck' }],
      counterparty: { index: 3, header: 'Name Zahlungsbeteiligter' },
      reference: null,
      balance: null,
      currency: null,
      status: null,
    };
    write(b.db, b.team, (w) =>
      w.insert('import_mapping', {
        bank_account_id: b.checking,
        name: 'old',
        format: 'csv',
        config: JSON.stringify(old),
        last_used_at: w.now,
      }),
    );
    expect(findImportMapping(b.db, b.team, b.checking, 'old')?.mapping.payer).toBeNull();
    const file = vrFile(HEADER, [
      'Giro;DE02500105170648489890;02.03.2026;02.03.2026;Hausverwaltung Becker;Dauerauftrag;Miete März;-1.250,00;EUR',
    ]);
    const { preview } = await previewFile(b.db, b.team, b.checking, file, { mappingName: 'old' });
    expect(preview.rows.map((r) => [r.date, r.amount, r.counterparty, r.description])).toEqual([
      ['2026-03-02', -1250, 'Hausverwaltung Becker', 'Miete März'],
    ]);
  });

  it('refuses a saved mapping asked for by name when the file lacks one of its columns, naming it; else infers anew', async () => {
    const b = books();
    const first = vrFile(HEADER, [
      'Giro;DE02500105170648489890;02.03.2026;02.03.2026;Hausverwaltung Becker;Dauerauftrag;Miete März;-1.250,00;EUR',
    ]);
    await importFile(b, b.checking, first, { saveMappingAs: 'VR Giro' });
    const other = Buffer.from('Datum;Empfänger;Zweck;Umsatz\n03.04.2026;Vodafone GmbH;Rechnung April;-59,50\n');
    let refused: ImportRefused | null = null;
    try {
      await previewFile(b.db, b.team, b.checking, other, { mappingName: 'VR Giro' });
    } catch (err) {
      refused = err as ImportRefused;
    }
    expect(refused).toBeInstanceOf(ImportRefused);
    expect(refused!.problems[0]).toMatchObject({ field: 'mapping' });
    expect(refused!.problems[0]!.message).toMatch(
      /lacks the columns the saved mapping reads: "Buchungstag" \(the booking day\), .*"Betrag" \(the amount\)/,
    );
    const { preview } = await previewFile(b.db, b.team, b.checking, other, {});
    expect(preview.notes[0]).toMatch(/the saved mapping "VR Giro" does not fit this file/);
    expect(preview.rows[0]).toMatchObject({ counterparty: 'Vodafone GmbH', amount: -59.5 });
  });
});
