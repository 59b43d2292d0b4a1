/**
 * Team settings: what belongs to the team rather than to one person — its details and members, its bank accounts,
 * the mail server its invoices go out through, and the exchange rates its base-currency figures use. One section at
 * a time, chosen by a tab kept in the address (`/team-settings?tab=accounts`), so each can be linked to.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/PageHeader';
import { Tabs } from '../../components/Tabs';
import { BankAccountsPanel } from './BankAccountsPanel';
import { EInvoiceSettings } from './EInvoiceSettings';
import { MailServerPanel } from './MailServerPanel';
import { RatesPanel } from './RatesPanel';
import { TeamPanel } from './TeamPanel';
import './team.css';

const SECTIONS = ['team', 'accounts', 'mail', 'rates'] as const;
type Section = (typeof SECTIONS)[number];

function sectionFromUrl(): Section {
  const tab = new URLSearchParams(globalThis.location?.search ?? '').get('tab');
  return (SECTIONS as readonly string[]).includes(tab ?? '') ? (tab as Section) : 'team';
}

export function TeamSettingsScreen() {
  const { t } = useTranslation('team');
  const [section, setSection] = useState<Section>(sectionFromUrl);
  const choose = (next: Section) => {
    setSection(next);
    const url = new URL(globalThis.location.href);
    if (next === 'team') url.searchParams.delete('tab');
    else url.searchParams.set('tab', next);
    globalThis.history.replaceState(null, '', `${url.pathname}${url.search}`);
  };
  return (
    <div className="page team-page">
      <PageHeader namespace="team" />
      <Tabs label={t('sections')} tabs={SECTIONS} value={section} onChange={choose} text={(s) => t(`tabs.${s}`)} />
      {section === 'team' ? (
        <>
          <TeamPanel />
          <EInvoiceSettings />
        </>
      ) : null}
      {section === 'accounts' ? <BankAccountsPanel /> : null}
      {section === 'mail' ? <MailServerPanel /> : null}
      {section === 'rates' ? <RatesPanel /> : null}
    </div>
  );
}
