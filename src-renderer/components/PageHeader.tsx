/**
 * A screen's header: its title and the line under it, in the screen's own words (`title`, `intro` in its
 * namespace), and the screen's main actions beside them.
 */
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function PageHeader(props: { namespace: string; children?: ReactNode }) {
  const { t } = useTranslation(props.namespace);
  return (
    <header className="page-header">
      <div>
        <h1>{t('title')}</h1>
        <p>{t('intro')}</p>
      </div>
      {props.children}
    </header>
  );
}
