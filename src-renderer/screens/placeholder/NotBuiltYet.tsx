/** A screen listed in the navigation whose feature is not built yet. It says so plainly; it shows no sample data. */
import { useTranslation } from 'react-i18next';

export function NotBuiltYet({ title, what }: { title: string; what: string }) {
  const { t } = useTranslation();
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1>{title}</h1>
        </div>
      </header>
      <section className="panel placeholder" aria-label={t('notBuiltLabel', { title })}>
        <span className="tagline">{t('notBuilt')}</span>
        <p>{what}</p>
        <p className="faint">{t('notBuiltNoData')}</p>
      </section>
    </div>
  );
}
