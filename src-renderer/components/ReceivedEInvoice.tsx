/**
 * A received e-invoice as a readable invoice (docs/decisions/0160-e-invoices.md): an inbox item or document whose
 * file was read from its XML (`extracted.method === 'e-invoice'`, `extracted.eInvoice`) shows what the XML states —
 * supplier with its ids, number and dates, the lines, VAT per rate, the totals down to the amount due, and where to
 * pay — instead of the fields guessed from a receipt. Self-contained (its text is the `einvoice` catalogue's) so a
 * screen mounts it with the document's fields:
 * `{extracted?.eInvoice ? <ReceivedEInvoice eInvoice={extracted.eInvoice} currency={extracted.currency ?? 'EUR'} /> : null}`.
 * An extraction stored before the lines and totals were kept shows what it has and says how to get the rest.
 */
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ReceivedEInvoice as Fields } from '../../src-shared/contract/documents';
import { formatAmount, formatDate, formatNumber } from '../lib/format';
import './received-einvoice.css';

export function ReceivedEInvoice({ eInvoice: e, currency }: { eInvoice: Fields; currency: string }) {
  const { t } = useTranslation('einvoice');
  const titleId = useId();
  const credit = e.typeCode === '381';
  const money = (value: string | null | undefined, cur = currency) => (value == null ? '' : formatAmount(Number(value), cur));
  const nonZero = (value: string | undefined) => value !== undefined && Number(value) !== 0;

  const references: [string, string][] = [
    [t('received.issued'), formatDate(e.issueDate)],
    ...(e.dueDate ? ([[t('received.due'), formatDate(e.dueDate)]] as [string, string][]) : []),
    ...(e.buyerReference ? ([[t('received.buyerReference'), e.buyerReference]] as [string, string][]) : []),
    ...(e.precedingInvoice ? ([[t('received.corrects'), e.precedingInvoice]] as [string, string][]) : []),
  ];
  const totals: [string, string, boolean?][] = [];
  if (e.lineTotal !== undefined && (nonZero(e.allowances) || nonZero(e.charges)))
    totals.push([t('received.lineTotal'), money(e.lineTotal)]);
  if (nonZero(e.allowances)) totals.push([t('received.allowances'), money(`-${e.allowances}`)]);
  if (nonZero(e.charges)) totals.push([t('received.charges'), money(e.charges)]);
  totals.push([t('received.withoutVat'), money(e.totalWithoutVat)], [t('received.tax'), money(e.vat)]);
  if (e.totalWithVat !== undefined && e.totalWithVat !== e.amountDue) totals.push([t('received.withVat'), money(e.totalWithVat)]);
  if (nonZero(e.prepaid)) totals.push([t('received.prepaid'), money(`-${e.prepaid}`)]);
  totals.push([t(credit ? 'received.creditDue' : 'received.amountDue'), money(e.amountDue), true]);
  if (e.vatAccounting?.vat != null)
    totals.push([
      t('received.vatIn', { currency: e.vatAccounting.currency }),
      money(e.vatAccounting.vat, e.vatAccounting.currency),
    ]);

  return (
    <section className="card padded received-einvoice" aria-labelledby={titleId} data-syntax={e.syntax}>
      <header className="received-head">
        <h2 id={titleId}>{t(credit ? 'received.creditNote' : 'received.invoice', { number: e.number })}</h2>
        <span className="faint">{t('received.readFrom', { syntax: e.syntax })}</span>
      </header>
      <div className="received-parties">
        <div>
          <h3>{t('received.from')}</h3>
          <strong>{e.supplier}</strong>
          {(e.supplierAddress ?? []).map((line) => (
            <div key={line}>{line}</div>
          ))}
          {e.supplierVatId ? <div className="faint">{t('received.vatId', { id: e.supplierVatId })}</div> : null}
          {e.supplierLegalId ? <div className="faint">{t('received.legalId', { id: e.supplierLegalId })}</div> : null}
          {e.supplierEndpoint ? <div className="faint">{t('received.endpoint', { id: e.supplierEndpoint })}</div> : null}
          <h3>{t('received.to')}</h3>
          <div>{e.buyer}</div>
        </div>
        <dl className="facts tight">
          {references.map(([label, value]) => (
            <div key={label} className="fact">
              <dt>{label}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <Lines eInvoice={e} money={money} />
      <VatTable eInvoice={e} money={money} />
      <dl className="facts tight received-totals">
        {totals.map(([label, value, strong]) => (
          <div key={label} className={strong ? 'fact total' : 'fact'}>
            <dt>{label}</dt>
            <dd className="money">{value}</dd>
          </div>
        ))}
      </dl>
      <div className="received-payment">
        <h3>{t('received.payment')}</h3>
        {e.iban ? (
          <dl className="facts tight">
            <div className="fact">
              <dt>{t('received.iban')}</dt>
              <dd className="mono">{e.iban}</dd>
            </div>
            {e.paymentReference ? (
              <div className="fact">
                <dt>{t('received.reference')}</dt>
                <dd>{e.paymentReference}</dd>
              </div>
            ) : null}
            {e.paymentTerms ? (
              <div className="fact">
                <dt>{t('received.terms')}</dt>
                <dd>{e.paymentTerms}</dd>
              </div>
            ) : null}
          </dl>
        ) : (
          <p className="muted">{t('received.noAccount')}</p>
        )}
      </div>
    </section>
  );
}

type Money = (value: string | null | undefined, currency?: string) => string;

/** A titled table of figures: each column text, a number or an amount (both right-aligned). */
function FigureTable(props: {
  title: string;
  columns: { label: string; kind?: 'num' | 'money' }[];
  rows: { key: string; cells: ReactNode[] }[];
}) {
  const titleId = useId();
  return (
    <div className="table-wrap">
      <h3 id={titleId}>{props.title}</h3>
      <table className="data compact" aria-labelledby={titleId}>
        <thead>
          <tr>
            {props.columns.map((c) => (
              <th key={c.label} scope="col" className={c.kind ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: a cell's place is its column
                <td key={i} className={props.columns[i]?.kind}>
                  {cell}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const decimals = (n: number) => formatNumber(n, Number.isInteger(n) ? 0 : 2);

function Lines({ eInvoice: e, money }: { eInvoice: Fields; money: Money }) {
  const { t, i18n } = useTranslation('einvoice');
  const unit = (code: string) => (i18n.exists(`einvoice:units.${code}`) ? t(`units.${code}`) : code);
  if (!e.lines) return <p className="muted">{t('received.noLines')}</p>;
  return (
    <FigureTable
      title={t('received.lines')}
      columns={[
        { label: t('received.description') },
        { label: t('received.quantity'), kind: 'num' },
        { label: t('received.price'), kind: 'money' },
        { label: t('received.net'), kind: 'money' },
        { label: t('received.vatRate'), kind: 'num' },
      ]}
      rows={e.lines.map((l, i) => ({
        // Lines have no id of their own here; their order is the XML's.
        key: String(i),
        cells: [
          l.name,
          `${decimals(l.quantity)} ${unit(l.unitCode)}`.trim(),
          money(l.price),
          money(l.net),
          `${decimals(l.rate)} %`,
        ],
      }))}
    />
  );
}

function VatTable({ eInvoice: e, money }: { eInvoice: Fields; money: Money }) {
  const { t, i18n } = useTranslation('einvoice');
  const category = (code: string) => (i18n.exists(`einvoice:categories.${code}`) ? t(`categories.${code}`) : code);
  return (
    <FigureTable
      title={t('received.vatTitle')}
      columns={[
        { label: t('received.rate') },
        { label: t('received.taxable'), kind: 'money' },
        { label: t('received.tax'), kind: 'money' },
      ]}
      rows={e.vatBreakdown.map((b) => ({
        key: `${b.category}-${b.rate}`,
        cells: [
          <>
            {t('received.vatGroup', { category: category(b.category), rate: decimals(b.rate) })}
            {b.exemptionReason ? <div className="faint">{b.exemptionReason}</div> : null}
          </>,
          money(b.taxable),
          money(b.vat),
        ],
      }))}
    />
  );
}
